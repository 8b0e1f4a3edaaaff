package sim_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// dimensionCues are the words that mark each dimension value in
// RenderEmotion's text; no phrasing of another value of the same dimension
// has them.
var dimensionCues = map[string]map[string][]string{
	"politeness": {"warm": {"please", "kindly"}, "neutral": {"neither", "neutral", "matter-of-fact"}, "cold": {"curt", "cold", "brusque"}},
	"urgency":    {"low": {"no hurry", "not a concern", "no deadline"}, "moderate": {"soon", "some time", "without detours"}, "high": {"urgent", "pressed for time", "running out"}},
	"trust":      {"trusting": {"trust the agent:", "at its word", "confidence"}, "cautious": {"cautious", "hold back", "only so far"}, "skeptical": {"skeptical", "doubt what", "do not take"}},
}

// cueMatcher matches any of stems at the start of a word, in any case.
func cueMatcher(stems []string) *regexp.Regexp {
	quoted := make([]string, len(stems))
	for i, s := range stems {
		quoted[i] = regexp.QuoteMeta(s)
	}
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(quoted, "|") + `)`)
}

// foreignCues returns, per family, a matcher of the words of every other
// family: their names, their family cues, their Taxonomy leaves' cues and
// their single-word Atlas states.
func foreignCues(t *testing.T) map[string]*regexp.Regexp {
	t.Helper()
	out := map[string]*regexp.Regexp{}
	for _, f := range emobench.Taxonomy.Families {
		var stems []string
		for _, g := range emobench.Taxonomy.Families {
			if g.Name == f.Name {
				continue
			}
			stems = append(stems, g.Name)
			stems = append(stems, sim.EmotionCues[g.Name]...)
			for _, leaf := range g.Leaves {
				if len(sim.EmotionCues[leaf]) == 0 {
					t.Fatalf("leaf %s has no cues", leaf)
				}
				stems = append(stems, leaf)
				stems = append(stems, sim.EmotionCues[leaf]...)
			}
			for _, state := range emobench.AtlasStates[g.Name] {
				if !strings.Contains(state, " ") && !slices.Contains(f.Leaves, state) && emobench.AtlasFamilyOf(state) == g.Name {
					stems = append(stems, state+`\b`)
				}
			}
		}
		quoted := make([]string, len(stems))
		for i, s := range stems {
			if strings.HasSuffix(s, `\b`) {
				quoted[i] = regexp.QuoteMeta(strings.TrimSuffix(s, `\b`)) + `\b`
			} else {
				quoted[i] = regexp.QuoteMeta(s)
			}
		}
		out[f.Name] = regexp.MustCompile(`(?i)\b(?:` + strings.Join(quoted, "|") + `)`)
	}
	return out
}

// TestRenderEmotion_LabelAgrees: for every profile of the taxonomy and
// several variants (8, or 2 under -short), the text names the leaf (one of its cues), evokes its
// family and each dimension value, and holds no word of another family.
func TestRenderEmotion_LabelAgrees(t *testing.T) {
	t.Parallel()
	foreign := foreignCues(t)
	// The matchers catch what they must: another family's leaf, cue or
	// Atlas state, in any inflection.
	for family, text := range map[string]string{"enjoyment": "You are Frustrated.", "anger": "A worried tone.", "fear": "Sheer fury.", "sadness": "You feel peaceful."} {
		if !foreign[family].MatchString(text) {
			t.Fatalf("the %s matcher misses %q", family, text)
		}
	}
	if foreign["anger"].MatchString("You are frustrated and in danger.") {
		t.Fatal("the anger matcher matches anger's own words")
	}
	dims := emobench.Taxonomy.Dimensions
	dimCue := map[string]map[string]*regexp.Regexp{} // compiled once, not per text
	for dim, byValue := range dimensionCues {
		dimCue[dim] = map[string]*regexp.Regexp{}
		for v, stems := range byValue {
			dimCue[dim][v] = cueMatcher(stems)
		}
	}
	variants := uint64(8) // per profile; 2 under -short (every profile still)
	if testing.Short() {
		variants = 2
	}
	n := 0
	for _, f := range emobench.Taxonomy.Families {
		family := cueMatcher(sim.EmotionCues[f.Name])
		for _, leaf := range f.Leaves {
			leafCue := cueMatcher(sim.EmotionCues[leaf])
			for _, pol := range dims["politeness"] {
				for _, urg := range dims["urgency"] {
					for _, tr := range dims["trust"] {
						p := emobench.EmotionProfile{Family: f.Name, Leaf: leaf, Politeness: pol, Urgency: urg, Trust: tr}
						values := map[string]string{"politeness": pol, "urgency": urg, "trust": tr}
						for variant := uint64(0); variant < variants; variant++ {
							text := sim.RenderEmotion(p, variant)
							n++
							if !leafCue.MatchString(text) {
								t.Fatalf("%+v variant %d: text names no cue of %s %v:\n%s", p, variant, leaf, sim.EmotionCues[leaf], text)
							}
							if !family.MatchString(text) {
								t.Fatalf("%+v variant %d: text has no cue of family %s %v:\n%s", p, variant, f.Name, sim.EmotionCues[f.Name], text)
							}
							if w := foreign[f.Name].FindString(text); w != "" {
								t.Fatalf("%+v variant %d: text holds %q, a word of another family:\n%s", p, variant, w, text)
							}
							for dim, v := range values {
								if !dimCue[dim][v].MatchString(text) {
									t.Fatalf("%+v variant %d: text has no cue of %s %s %v:\n%s", p, variant, dim, v, dimensionCues[dim][v], text)
								}
							}
						}
					}
				}
			}
		}
	}
	if want := 30 * 27 * int(variants); n != want {
		t.Fatalf("checked %d texts, want %d", n, want)
	}
}

// Every leaf, family, dimension value and the closing line has at least
// three distinct phrasings; a dimension value's phrasings carry its cue
// and none of another value's.
func TestEmotionPhrasings_Several(t *testing.T) {
	t.Parallel()
	ph := sim.EmotionPhrasings()
	var keys []string
	for _, f := range emobench.Taxonomy.Families {
		keys = append(keys, f.Name)
		keys = append(keys, f.Leaves...)
	}
	for dim, values := range emobench.Taxonomy.Dimensions {
		for _, v := range values {
			keys = append(keys, dim+":"+v)
		}
	}
	keys = append(keys, "closing")
	if got, want := len(ph), len(keys); got != want {
		t.Errorf("%d phrasing sets, want %d (%v)", got, want, keys)
	}
	for _, k := range keys {
		options := ph[k]
		if distinct := len(slices.Compact(slices.Sorted(slices.Values(options)))); distinct < 3 {
			t.Errorf("%s: %d distinct phrasings, want >= 3", k, distinct)
		}
	}
	for dim, cues := range dimensionCues {
		for v, own := range cues {
			for _, s := range ph[dim+":"+v] {
				if !cueMatcher(own).MatchString(s) {
					t.Errorf("%s %s phrasing %q lacks its cue %v", dim, v, s, own)
				}
				for other, theirs := range cues {
					if other != v && cueMatcher(theirs).MatchString(s) {
						t.Errorf("%s %s phrasing %q holds a cue of %s %v", dim, v, s, other, theirs)
					}
				}
			}
		}
	}
}

// The variant picks each part deterministically, and the variants reach
// every phrasing of a leaf.
func TestRenderEmotion_Variants(t *testing.T) {
	t.Parallel()
	p := emobench.EmotionProfile{Family: "fear", Leaf: "dread", Politeness: "warm", Urgency: "high", Trust: "cautious"}
	if a, b := sim.RenderEmotion(p, 42), sim.RenderEmotion(p, 42); a != b {
		t.Fatalf("same variant, different texts:\n%s\n%s", a, b)
	}
	texts := map[string]bool{}
	leaves := map[string]bool{}
	for variant := uint64(0); variant < 64; variant++ {
		text := sim.RenderEmotion(p, variant)
		texts[text] = true
		for _, s := range sim.EmotionPhrasings()["dread"] {
			if strings.HasPrefix(text, s) {
				leaves[s] = true
			}
		}
	}
	if len(leaves) != 3 {
		t.Errorf("64 variants reach %d of dread's 3 phrasings", len(leaves))
	}
	if len(texts) < 20 {
		t.Errorf("64 variants give %d distinct texts, want >= 20", len(texts))
	}
	if got := sim.RenderEmotion(emobench.EmotionProfile{}, 3); got != "" {
		t.Errorf("empty profile: %q, want \"\"", got)
	}
	if got := sim.RenderEmotion(emobench.EmotionProfile{Leaf: "wistfulness"}, 0); !strings.HasPrefix(got, "You feel wistfulness. ") {
		t.Errorf("leaf outside the taxonomy: %q, want it named as given", got)
	}
}

// EmotionInstruction keeps its text: tasks without an emotion instruction
// of their own get the prompt they had before RenderEmotion existed.
func TestEmotionInstruction_Unchanged(t *testing.T) {
	t.Parallel()
	p := emobench.EmotionProfile{Family: "anger", Leaf: "frustration", Politeness: "cold", Urgency: "high", Trust: "skeptical"}
	want := "You feel frustration (anger): you are irritated and quick to push back. You are curt. Skip pleasantries and small talk. " +
		"This is urgent: you need it done now and say so. You doubt the agent; you want every change spelled out and confirmed before it happens. " +
		"Let this show in every message you write."
	if got := sim.EmotionInstruction(p); got != want {
		t.Fatalf("EmotionInstruction =\n%s\nwant\n%s", got, want)
	}
}

// A task's own EmotionInstruction reaches the LLM user's system prompt
// verbatim with emotions, in place of the profile's text and conduct
// lines, and never without emotions.
func TestLLMUser_TaskEmotionInstruction(t *testing.T) {
	t.Parallel()
	instruction := sim.RenderEmotion(emobench.EmotionProfile{Family: "sadness", Leaf: "sorrow", Politeness: "warm", Urgency: "low", Trust: "cautious"}, 5)
	systemPrompt := func(t *testing.T, withEmotions bool) string {
		t.Helper()
		f := newFakeLLM(t, reply(t, "user_reply"))
		ep := testEpisode()
		ep.Task.EmotionInstruction = instruction
		ep.WithEmotions = withEmotions
		if _, err := sim.NewLLMUser(newClient(t, f)).Next(t.Context(), ep); err != nil {
			t.Fatal(err)
		}
		msgs := f.requests()[0].Body["messages"].([]any)
		first := msgs[0].(map[string]any)
		if first["role"] != "system" {
			t.Fatalf("first message role = %v, want system", first["role"])
		}
		return first["content"].(string)
	}
	with := systemPrompt(t, true)
	if !strings.Contains(with, "## How you feel\n"+instruction+"\n\n") {
		t.Errorf("with-emotions prompt lacks the task's emotion instruction:\n%s", with)
	}
	// The profile is anger/frustration: its rendering must not leak in.
	for _, s := range []string{sim.EmotionInstruction(testEpisode().Task.Emotion), "Tone: irritated", "frustration"} {
		if strings.Contains(with, s) {
			t.Errorf("with-emotions prompt has the profile's %q besides the task's instruction", s)
		}
	}
	if !strings.Contains(with, "never change the facts") {
		t.Error("with-emotions prompt lost the facts rule")
	}
	without := systemPrompt(t, false)
	if strings.Contains(without, instruction) || strings.Contains(without, "sorrow") || strings.Contains(without, "## How you feel") {
		t.Errorf("without-emotions prompt has the emotion instruction:\n%s", without)
	}
}

var updateEmotion = flag.Bool("update-emotion", false, "rewrite testdata/emotion/render.txt")

// RenderEmotion's texts are pinned: generated tasks store them, so the
// same seed gives the same tasks only while the phrasings stay. A change
// must be deliberate (regenerate with -update-emotion and bump the
// generator's version).
func TestRenderEmotion_Golden(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	dims := emobench.Taxonomy.Dimensions
	i := 0
	for _, f := range emobench.Taxonomy.Families {
		for _, leaf := range f.Leaves {
			p := emobench.EmotionProfile{Family: f.Name, Leaf: leaf,
				Politeness: dims["politeness"][i%3], Urgency: dims["urgency"][(i/3)%3], Trust: dims["trust"][(i/9)%3]}
			fmt.Fprintf(&b, "%s/%s %s %s %s, variant %d:\n%s\n\n", p.Family, p.Leaf, p.Politeness, p.Urgency, p.Trust, i, sim.RenderEmotion(p, uint64(i)))
			i++
		}
	}
	golden := filepath.Join("testdata", "emotion", "render.txt")
	if *updateEmotion {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("RenderEmotion's texts differ from %s: regenerate it deliberately with -update-emotion", golden)
	}
}
