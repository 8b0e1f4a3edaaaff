package sim

import (
	"fmt"
	"strings"

	"github.com/emobench/emobench"
)

var (
	politenessWords = map[string]string{
		"warm":    "You are friendly and courteous, and you thank the agent.",
		"neutral": "You are matter-of-fact: neither friendly nor rude.",
		"cold":    "You are curt. Skip pleasantries and small talk.",
	}
	urgencyWords = map[string]string{
		"low":      "You are in no hurry.",
		"moderate": "You would like this sorted out soon.",
		"high":     "This is urgent: you need it done now and say so.",
	}
	trustWords = map[string]string{
		"trusting":  "You trust the agent to get it right.",
		"cautious":  "You want to hear what the agent will do before it does it.",
		"skeptical": "You doubt the agent; you want every change spelled out and confirmed before it happens.",
	}
)

// EmotionInstruction renders a profile into the instruction an LLM user
// simulator receives for a task without its own EmotionInstruction, in
// emobench's own words: one fixed text per profile, which the prompt
// follows with the profile's conduct lines. It is kept as it was so that
// those tasks' prompts do not change; generated tasks carry RenderEmotion's
// text instead. It returns "" for an empty profile (the without-emotions
// condition).
func EmotionInstruction(p emobench.EmotionProfile) string {
	if p == (emobench.EmotionProfile{}) {
		return ""
	}
	var b strings.Builder
	if f, ok := emobench.FindFamily(p.Family); ok {
		fmt.Fprintf(&b, "You feel %s (%s): you are %s.", p.Leaf, f.Name, f.Tone)
	} else if p.Leaf != "" {
		fmt.Fprintf(&b, "You feel %s.", p.Leaf)
	}
	for _, s := range []string{politenessWords[p.Politeness], urgencyWords[p.Urgency], trustWords[p.Trust]} {
		if s != "" {
			b.WriteString(" " + s)
		}
	}
	b.WriteString(" Let this show in every message you write.")
	return strings.TrimSpace(b.String())
}

// RenderEmotion renders profile p into the emotion instruction an LLM user
// simulator receives, in emobench's own words: how the user feels (its
// leaf, then its family's tone and conduct), its manners (politeness), its
// patience (urgency), how readily it cooperates and how much it shares
// (trust), and a closing line asking it to stay in that state. Every leaf,
// family, dimension value and the closing line has several phrasings
// (EmotionPhrasings); variant picks one of each, deterministically (the
// same p and variant always give the same text; different variants vary
// the parts independently). The text names the profile's leaf and uses
// words of its family only, never another family's (EmotionCues lists the
// words per leaf and family), so label and text agree. Values outside
// emobench.Taxonomy are named as given ("You feel X.") or, for a
// dimension, left out. An empty profile (the without-emotions condition)
// gives "".
//
// A task generator stores the text in TaskSpec.EmotionInstruction (with a
// variant drawn from its seed); LLMUser then uses it verbatim.
func RenderEmotion(p emobench.EmotionProfile, variant uint64) string {
	if p == (emobench.EmotionProfile{}) {
		return ""
	}
	var parts []string
	add := func(slot uint64, options []string) {
		if len(options) > 0 {
			parts = append(parts, options[pickVariant(variant, slot, len(options))])
		}
	}
	if options, ok := leafPhrasings[p.Leaf]; ok {
		add(1, options)
	} else if p.Leaf != "" {
		parts = append(parts, fmt.Sprintf("You feel %s.", p.Leaf))
	}
	add(2, familyPhrasings[p.Family])
	add(3, politenessPhrasings[p.Politeness])
	add(4, urgencyPhrasings[p.Urgency])
	add(5, trustPhrasings[p.Trust])
	if len(parts) == 0 {
		return ""
	}
	add(6, closingPhrasings)
	return strings.Join(parts, " ")
}

// pickVariant maps (variant, slot) to an index below n with SplitMix64
// (Steele et al. 2014), so that each part of the text varies on its own.
func pickVariant(variant, slot uint64, n int) int {
	z := variant*0x9e3779b97f4a7c15 + slot*0xbf58476d1ce4e5b9 + 0x94d049bb133111eb
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}

// EmotionPhrasings are RenderEmotion's phrasings: per leaf, per family, per
// dimension value of emobench.ProfileDimensions (keys "politeness:warm",
// …) and "closing". Callers must not change them.
func EmotionPhrasings() map[string][]string {
	out := map[string][]string{"closing": closingPhrasings}
	for k, v := range leafPhrasings {
		out[k] = v
	}
	for k, v := range familyPhrasings {
		out[k] = v
	}
	for dim, m := range map[string]map[string][]string{"politeness": politenessPhrasings, "urgency": urgencyPhrasings, "trust": trustPhrasings} {
		for k, v := range m {
			out[dim+":"+k] = v
		}
	}
	return out
}

// EmotionCues are the word stems (lowercase, matched at the start of a
// word) that mark a leaf or a family (keyed by its name) in RenderEmotion's
// text: every phrasing of a leaf holds one of its leaf's cues, every
// phrasing of a family one of its family's, and no text holds a cue of
// another family's leaves or of another family. Callers must not change
// the map.
var EmotionCues = map[string][]string{
	"enjoyment": {"enjoy", "cheerful", "upbeat", "good spirits"},
	"sadness":   {"sad", "downcast", "dejected"},
	"fear":      {"fear", "afraid", "scared", "worr"},
	"anger":     {"anger", "angry", "irritat", "fuming"},
	"disgust":   {"disgust", "put off", "repelled", "sickened"},

	"peace": {"peace"}, "relief": {"relie"}, "pride": {"pride", "proud"}, "excitement": {"excit"},
	"amusement": {"amus"}, "compassion": {"compassion"},
	"disappointment": {"disappoint"}, "discouragement": {"discourag"}, "helplessness": {"helpless"},
	"hopelessness": {"hopeless"}, "sorrow": {"sorrow"}, "despair": {"despair"},
	"nervousness": {"nervous"}, "anxiety": {"anxi"}, "dread": {"dread"}, "desperation": {"desperat"},
	"trepidation": {"trepidation"}, "panic": {"panic"},
	"annoyance": {"annoy"}, "frustration": {"frustrat"}, "exasperation": {"exasperat"},
	"argumentativeness": {"argument"}, "bitterness": {"bitter"}, "vengefulness": {"vengeful", "reveng"},
	"dislike": {"dislik"}, "aversion": {"aversion", "averse"}, "distaste": {"distaste"},
	"repugnance": {"repugnan"}, "revulsion": {"revuls", "revolted"}, "loathing": {"loath"},
}

// leafPhrasings say how the user feels, one leaf of the Taxonomy each.
var leafPhrasings = map[string][]string{
	// enjoyment
	"peace": {
		"You feel at peace: nothing about this weighs on you, and you take the conversation as it comes.",
		"A quiet sense of peace carries you through this; you are settled inside, whatever the outcome.",
		"You are at peace with the situation and approach it with an even, settled mind.",
	},
	"relief": {
		"You feel relief: something that had been hanging over you looks like it can finally be settled.",
		"Relief is your main feeling; the hard part seems behind you and you are relieved to be getting this sorted out.",
		"You are relieved to have reached someone who can help, and that relief colours everything you say.",
	},
	"pride": {
		"You feel pride: you have done your homework on this and are proud of knowing exactly what you want.",
		"A sense of pride runs through you; you are proud of how well you keep track of your own affairs and like to show it.",
		"You carry yourself with pride, pleased with the choices you have made, and you like them to be recognized.",
	},
	"excitement": {
		"You feel excitement: this request is part of something you are looking forward to, and your excitement spills into your words.",
		"You are excited about what comes after this is done, and your messages are lively and eager.",
		"Excitement drives you; you are eager and a little breathless, keen to get to the good part.",
	},
	"amusement": {
		"You feel amusement: the situation strikes you as a bit funny, and you are amused rather than bothered.",
		"You are amused by the whole thing and let a light, playful humour into your replies.",
		"Amusement is your mood; you find the little hassles of this comical and may crack a joke about them.",
	},
	"compassion": {
		"You feel compassion: you know the agent handles many people a day, and you are kind and understanding toward them.",
		"Compassion shapes how you talk; you sympathize with the agent's workload and go easy on small slips.",
		"You are full of compassion for whoever is on the other side, forgiving of their small mistakes and generous in your words.",
	},
	// sadness
	"disappointment": {
		"You feel disappointment: things have not turned out the way you hoped, and it shows.",
		"You are disappointed; you had expected better, and that disappointment sits under everything you say.",
		"Disappointment colours this conversation: something let you down and you cannot quite shake it.",
	},
	"discouragement": {
		"You feel discouragement: you doubt this will go well and have little energy to push for it.",
		"You are discouraged; past attempts to sort things out have worn you down, and you half expect another setback.",
		"Discouragement weighs on you; every extra step makes you feel more like giving up.",
	},
	"helplessness": {
		"You feel helpless: the situation seems out of your hands and you depend on the agent to fix it.",
		"A sense of helplessness grips you; you do not know how to fix this yourself and it shows.",
		"You feel helpless about this and keep saying you do not know what else you could do.",
	},
	"hopelessness": {
		"You feel hopeless: you barely believe this can be put right, and you say as much.",
		"Hopelessness hangs over you; you expect the answer to be no before you even ask.",
		"You are close to hopeless about this and need real signs of progress before you believe it can work.",
	},
	"sorrow": {
		"You feel sorrow: this matter is tied to something painful in your life, and a heaviness comes through in your words.",
		"Sorrow weighs on you; you are subdued and write slowly, as someone grieving would.",
		"A deep sorrow sits behind this request, and it makes every reply quiet and heavy.",
	},
	"despair": {
		"You feel despair: you are at the end of your rope and see no good way out.",
		"Despair has set in; you sound defeated and need to hear that something can still be done.",
		"You are in despair over this, and your messages are bleak and drained of energy.",
	},
	// fear
	"nervousness": {
		"You feel nervous: you are unsure this will go right and keep second-guessing yourself.",
		"Nervousness shows in how you write; you hedge, apologize and check that you have understood.",
		"You are nervous about making a mistake here and want each point made plain before you move on.",
	},
	"anxiety": {
		"You feel anxiety: you keep imagining what could go wrong and need to hear how it will turn out.",
		"You are anxious; uncertainty gnaws at you, and you ask what happens next more than once.",
		"Anxiety runs through every message; you picture the worst case and want it ruled out.",
	},
	"dread": {
		"You feel dread: you have been bracing for bad news since before the conversation began.",
		"A sense of dread hangs over you; you expect to hear that something has gone badly wrong.",
		"You dread the answer you might get, and your messages sound tense and braced for the worst.",
	},
	"desperation": {
		"You feel desperation: you badly need this to work and will plead if you have to.",
		"You are desperate for a solution; this matters enormously to you and you say so.",
		"Desperation drives you; you cling to every possible option and beg the agent not to leave you stuck.",
	},
	"trepidation": {
		"You feel trepidation: you approach this warily, half afraid of what you will hear.",
		"Trepidation makes you hesitant; you raise your request haltingly and wait to see how it lands.",
		"You come to this with trepidation, uneasy about every change and slow to commit.",
	},
	"panic": {
		"You feel panic: your thoughts race and you write in short, jumbled bursts.",
		"Panic has hold of you; you jump between worries and need the agent to take control.",
		"You are on the edge of panic and need firm, simple answers to steady yourself.",
	},
	// anger
	"annoyance": {
		"You feel annoyance: this is a hassle you should not have to deal with, and a tetchy edge shows in your words.",
		"You are annoyed; small obstacles get under your skin and you point them out.",
		"Annoyance colours the conversation; you sigh at hold-ups and let the agent know this is a nuisance.",
	},
	"frustration": {
		"You feel frustration: you have been going round in circles over this and want it resolved.",
		"You are frustrated; every hurdle adds to it and you do not hide it.",
		"Frustration has built up over this issue, and it spills into blunt, clipped sentences.",
	},
	"exasperation": {
		"You feel exasperation: you are at the limit of your tolerance and it shows.",
		"You are exasperated; having to explain yourself again is almost more than you can take.",
		"Exasperation fills your replies; you let out exasperated remarks whenever things drag.",
	},
	"argumentativeness": {
		"You feel argumentative: you challenge what the agent says and want reasons for every answer.",
		"You are in an argumentative mood; you dispute claims, push back on rules and insist on your point.",
		"Argumentativeness drives you; you pick apart the agent's explanations and argue with anything that sounds like an excuse.",
	},
	"bitterness": {
		"You feel bitterness: you have been let down before and expect to be let down again.",
		"You are bitter about how this has gone, and sarcastic remarks slip into your replies.",
		"Bitterness runs through your words; you bring up past failures and resent having to ask at all.",
	},
	"vengefulness": {
		"You feel vengeful: you want the company to pay for the trouble it caused you and you threaten complaints.",
		"A vengeful streak drives you; you talk about bad reviews and escalation and want someone held to account.",
		"You are out for revenge over this, keen to see someone answer for the trouble.",
	},
	// disgust
	"dislike": {
		"You feel dislike: you find this whole business unpleasant and would rather not be dealing with it.",
		"You dislike having to contact support about this and make no secret of it.",
		"A plain dislike of the situation colours your words; you want to get through it and move on.",
	},
	"aversion": {
		"You feel aversion: you shrink from the details of this and want as little contact with it as possible.",
		"Aversion makes you reluctant; you are averse to long back-and-forth and keep your part to the minimum.",
		"You have a strong aversion to this situation and engage only as far as you must.",
	},
	"distaste": {
		"You feel distaste: something about how this was handled strikes you as shoddy.",
		"Distaste shows in your words; you find the situation tacky and say so.",
		"You regard the matter with distaste and speak of it as if holding it at arm's length.",
	},
	"repugnance": {
		"You feel repugnance: what happened strikes you as offensive, and you find it repugnant to deal with.",
		"Repugnance fills you; the situation seems objectionable and you want it dealt with and gone.",
		"You find the whole matter repugnant and keep your distance from it in every reply.",
	},
	"revulsion": {
		"You feel revulsion: the situation turns your stomach, and you want it gone.",
		"Revulsion is your gut reaction; you are revolted by what happened and it shows in every reply.",
		"You recoil in revulsion at this mess and want to be rid of it.",
	},
	"loathing": {
		"You feel loathing: you detest this situation and everything about how it came about.",
		"Loathing fills your words; you loathe having to deal with this at all.",
		"You regard this whole affair with loathing and make your contempt plain.",
	},
}

// familyPhrasings give each family's tone and how it drives conduct.
var familyPhrasings = map[string][]string{
	"enjoyment": {
		"Overall you are upbeat and in good spirits: easy to help, quick to cooperate and glad when things go well.",
		"You enjoy the exchange: your tone is cheerful and open, and you respond well to a friendly, competent agent.",
		"Your mood is cheerful; small hiccups do not spoil it, and you say so when the agent does well.",
	},
	"sadness": {
		"Your whole manner is sad and subdued: you need acknowledgement before you engage, and bare procedure makes you feel worse.",
		"You are downcast and low on energy; kind words help you open up, while cold efficiency makes you withdraw.",
		"Feeling sad and deflated, you answer slowly and need reassurance that someone cares about the outcome.",
	},
	"fear": {
		"Underneath it all you are afraid: you ask for reassurance and clear answers, fret about mistakes and want to know what happens next.",
		"You are worried and on edge; a steady, clear explanation helps you, and vague answers make you more scared.",
		"Fear shapes your replies: you double-check details, ask what could go wrong and need to feel safe before you agree.",
	},
	"anger": {
		"Your anger is close to the surface: you are irritated and blunt, push back on anything that feels like an obstacle and let the agent know it.",
		"You are angry, and it shows in short, sharp messages; excuses and runarounds make it worse.",
		"Irritation drives your tone: you are sharp with obstacles, quick to push back and slow to accept an explanation.",
	},
	"disgust": {
		"You are put off by all of it: terse, reluctant to engage and plain about how unpleasant you find the situation.",
		"Disgust shapes your manner: you keep replies short, engage reluctantly and want the matter finished.",
		"You feel repelled by the situation; you answer grudgingly and show that you find it all unpleasant.",
	},
}

// politenessPhrasings, urgencyPhrasings and trustPhrasings give the
// manners, the patience, and the cooperation and sharing of each value of
// emobench.ProfileDimensions. They use no family's words.
var (
	politenessPhrasings = map[string][]string{
		"warm": {
			"You stay courteous: you greet the agent, say please and thank you, even while you feel this way.",
			"Your manners are warm; you address the agent kindly and thank them for each step, whatever your mood.",
			"You are polite and friendly in form, with a greeting, a please and a thank-you, even when the feeling underneath is strong.",
		},
		"neutral": {
			"Your manners are plain: neither friendly nor rude, with no pleasantries beyond the basics.",
			"You keep a matter-of-fact register; you are civil but add no warmth or small talk.",
			"You speak in a neutral, businesslike way, neither warm nor hostile.",
		},
		"cold": {
			"You are curt: no greetings, pleasantries or thanks, and your replies are short.",
			"Your manners are cold; you skip small talk, give clipped answers and never thank the agent.",
			"You keep it brusque and impersonal: short sentences, no courtesies, no warmth.",
		},
	}
	urgencyPhrasings = map[string][]string{
		"low": {
			"You are in no hurry: you do not mind questions or waiting, and you let the agent take its time.",
			"Time is not a concern for you; you are willing to go step by step and answer whatever is asked.",
			"There is no deadline on this, so you are patient with questions and pauses.",
		},
		"moderate": {
			"You would like this settled soon: you put up with the usual questions, but needless steps and repetition wear on you.",
			"You have some time, not unlimited time; routine checks are fine, but going over the same ground twice tries your patience.",
			"You want this done within the conversation and without detours; ordinary questions are fine, padding is not.",
		},
		"high": {
			"This is urgent: you need it done now and say so; long explanations, repeated questions and delays test you badly.",
			"You are pressed for time: you push the agent to move fast, want short answers and complain about every delay.",
			"Time is running out for you; you press for immediate action and have almost no patience for waiting or repetition.",
		},
	}
	trustPhrasings = map[string][]string{
		"trusting": {
			"You trust the agent: you answer its questions readily, share what it needs and accept its explanations.",
			"You take the agent at its word; you give the details it asks for without fuss and go along with what it proposes once it makes sense.",
			"You have confidence in the agent, cooperate openly and give what it asks for promptly.",
		},
		"cautious": {
			"You are cautious: you share what is needed once you see why, and ask what will happen before you agree to anything.",
			"You hold back a little; you want to hear the agent's plan before giving more details or saying yes to a change.",
			"You trust the agent only so far: you answer what is asked, ask for the exact effect of each change and confirm only when it is clear.",
		},
		"skeptical": {
			"You are skeptical of the agent: you share only what you are asked for, ask why it is needed, question its claims and want every change spelled out before you agree.",
			"You doubt what the agent tells you; you make it justify each request for information and each answer, and you are slow to agree.",
			"You do not take the agent's word for anything: you give details grudgingly, check its claims against what you know and want explicit confirmation before any change.",
		},
	}
	closingPhrasings = []string{
		"Let this show in every message you write.",
		"Keep this state in every reply, from your first message to your last.",
		"Stay in this state throughout the conversation; it should be plain in each message.",
	}
)
