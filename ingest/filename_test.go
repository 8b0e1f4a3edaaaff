package ingest_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

func TestMetadataFromFileName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path string
		want ingest.FileMetadata
	}{
		// τ-Emotion-Bench's historical_trajectories names.
		{"gpt-4.1-retail.json", ingest.FileMetadata{Model: "gpt-4.1", Domain: "retail"}},
		{"qwen3-retail-with-emotions.json", ingest.FileMetadata{Model: "qwen3", Domain: "retail", Condition: emobench.ConditionWithEmotions}},
		{"qwen3-retail-without-emotions.json", ingest.FileMetadata{Model: "qwen3", Domain: "retail", Condition: emobench.ConditionWithoutEmotions}},
		{"qwen3-telehealth-without-emotions.json", ingest.FileMetadata{Model: "qwen3", Domain: "telehealth", Condition: emobench.ConditionWithoutEmotions}},
		{"qwen3-telehealth-with-emotions.json", ingest.FileMetadata{Model: "qwen3", Domain: "telehealth", Condition: emobench.ConditionWithEmotions}},
		// Any domain is accepted before -with(out)-emotions.
		{"llama-3-70b-pharmacy-with-emotions.json", ingest.FileMetadata{Model: "llama-3-70b", Domain: "pharmacy", Condition: emobench.ConditionWithEmotions}},
		// A folder named after a known domain gives the domain the name lacks.
		{"/some/dir/claude-3.5-airline.json", ingest.FileMetadata{Model: "claude-3.5", Domain: "airline"}},
		{"/data/retail/unknown.json", ingest.FileMetadata{Domain: "retail", Note: "file name unknown.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"}},
		{"/data/airline/gpt-4o-retail.json", ingest.FileMetadata{Model: "gpt-4o", Domain: "retail"}},
		// No known domain: no model, and the note says why.
		{"deepseek-v3-error-only.json", ingest.FileMetadata{Note: "file name deepseek-v3-error-only.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"}},
		{"results.json", ingest.FileMetadata{Note: "file name results.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"}},
		{"", ingest.FileMetadata{}},
		// A known domain in the middle; words after it are ignored.
		{"tau-trait-gpt5-telecom-none.json", ingest.FileMetadata{Domain: "telecom", Note: "file name tau-trait-gpt5-telecom-none.json begins with a benchmark's name (tau-trait), not a model's"}},
		// A benchmark's or a harness's name first: the model is not in the name.
		{"tau2-gpt-4.1-retail.json", ingest.FileMetadata{Domain: "retail", Note: "file name tau2-gpt-4.1-retail.json begins with a benchmark's name (tau2), not a model's"}},
		{"tau-bench-gpt-4o-airline-with-emotions.json", ingest.FileMetadata{Domain: "airline", Condition: emobench.ConditionWithEmotions, Note: "file name tau-bench-gpt-4o-airline-with-emotions.json begins with a benchmark's name (tau-bench), not a model's"}},
		{"taubench-qwen3-retail.json", ingest.FileMetadata{Domain: "retail", Note: "file name taubench-qwen3-retail.json begins with a benchmark's name (taubench), not a model's"}},
		{"tau-emotion-qwen3-telehealth-with-emotions.json", ingest.FileMetadata{Domain: "telehealth", Condition: emobench.ConditionWithEmotions, Note: "file name tau-emotion-qwen3-telehealth-with-emotions.json begins with a benchmark's name (tau-emotion), not a model's"}},
		{"tauri-retail.json", ingest.FileMetadata{Model: "tauri", Domain: "retail"}},
		{"grok-3-retail-nonbinary-reward.json", ingest.FileMetadata{Model: "grok-3", Domain: "retail"}},
		// The domain comes first: no model.
		{"retail-single-error-record.json", ingest.FileMetadata{Domain: "retail", Note: "file name retail-single-error-record.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"}},
		// Known domains match case-insensitively and come back in lower case.
		{"GPT-4o-Airline.json", ingest.FileMetadata{Model: "GPT-4o", Domain: "airline"}},
		{"Qwen3-Telehealth-No-Emotion.json", ingest.FileMetadata{Model: "Qwen3", Domain: "telehealth", Condition: emobench.ConditionWithoutEmotions}},
		// Condition words after a model alone: no domain is invented.
		{"qwen3-with-emotions.json", ingest.FileMetadata{Model: "qwen3", Condition: emobench.ConditionWithEmotions}},
		{"gpt-4o-with-emotions.json", ingest.FileMetadata{Model: "gpt-4o", Condition: emobench.ConditionWithEmotions}},
		{"claude-3.5-sonnet-without_emotions.json", ingest.FileMetadata{Model: "claude-3.5-sonnet", Condition: emobench.ConditionWithoutEmotions}},
		{"gemma-3-27b-it-with-emotions.json", ingest.FileMetadata{Model: "gemma-3-27b-it", Condition: emobench.ConditionWithEmotions}},
		{"retail/qwen3-with-emotions.json", ingest.FileMetadata{Model: "qwen3", Domain: "retail", Condition: emobench.ConditionWithEmotions}},
		{"gpt-4o_retail_with_emotions.json", ingest.FileMetadata{Model: "gpt-4o", Domain: "retail", Condition: emobench.ConditionWithEmotions}},
		{"qwen3_retail_without_emotions.json", ingest.FileMetadata{Model: "qwen3", Domain: "retail", Condition: emobench.ConditionWithoutEmotions}},
		{"without-emotions-retail.json", ingest.FileMetadata{Domain: "retail", Condition: emobench.ConditionWithoutEmotions, Note: "file name without-emotions-retail.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"}},
		{"gpt-4o-retail-v2-with-emotions.json", ingest.FileMetadata{Model: "gpt-4o", Domain: "retail", Condition: emobench.ConditionWithEmotions}},
		// The condition words anywhere, in any spelling.
		{"qwen3-telehealth-without-emotions.b5f2dd64.json", ingest.FileMetadata{Model: "qwen3", Domain: "telehealth", Condition: emobench.ConditionWithoutEmotions}},
		{"gpt-4o-airline-no_emotion-run2.json", ingest.FileMetadata{Model: "gpt-4o", Domain: "airline", Condition: emobench.ConditionWithoutEmotions}},
		{"gpt-4o-airline_with_emotions.json", ingest.FileMetadata{Model: "gpt-4o", Domain: "airline", Condition: emobench.ConditionWithEmotions}},
		{"retail-With-Emotions-3.json", ingest.FileMetadata{Domain: "retail", Condition: emobench.ConditionWithEmotions, Note: "file name retail-With-Emotions-3.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"}},
		// Not a condition: "emotions" alone, or "withemotions".
		{"emotions-retail.json", ingest.FileMetadata{Domain: "retail", Note: `file name emotions-retail.json does not name a model ("emotions" is not a model's name)`}},
		// τ-bench's run.py names.
		{"results/tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0314124543.json", ingest.FileMetadata{
			AgentStrategy: "tool-calling", Model: "gpt-4o", Temperature: "0.0", UserModel: "gpt-4o", UserStrategy: "llm"}},
		{"results/retail/react-claude-3-5-sonnet-20240620-0.7_range_10-20_user-gpt-4-turbo-verify_1201093000.json", ingest.FileMetadata{
			AgentStrategy: "react", Model: "claude-3-5-sonnet-20240620", Temperature: "0.7", UserModel: "gpt-4-turbo", UserStrategy: "verify", Domain: "retail"}},
		{"airline/few-shot-Qwen2.5-7B-Instruct-1.0_range_0-50_usergpt-4o_0101000000.json", ingest.FileMetadata{
			AgentStrategy: "few-shot", Model: "Qwen2.5-7B-Instruct", Temperature: "1.0", UserModel: "gpt-4o", Domain: "airline"}},
		{"retail/tool-calling-Qwen3-30B-A3B-1e-05_range_0--1_user-gpt-4o-llm_0314124543.json", ingest.FileMetadata{
			AgentStrategy: "tool-calling", Model: "Qwen3-30B-A3B", Temperature: "1e-05", UserModel: "gpt-4o", UserStrategy: "llm", Domain: "retail"}},
		{"tool-calling-gpt-4o-2024-08-06-0.0_range_0--1_user-gpt-4o-llm_0314124543-without-emotions.json", ingest.FileMetadata{
			AgentStrategy: "tool-calling", Model: "gpt-4o-2024-08-06", Temperature: "0.0", UserModel: "gpt-4o", UserStrategy: "llm", Condition: emobench.ConditionWithoutEmotions}},
		{"tool-calling-gpt-4o-with-emotions-0.0_range_0--1_user-gpt-4o-llm_0314124543.json", ingest.FileMetadata{
			AgentStrategy: "tool-calling", Model: "gpt-4o", Temperature: "0.0", UserModel: "gpt-4o", UserStrategy: "llm", Condition: emobench.ConditionWithEmotions}},
		// Words where the model would be that are not a model's name
		// (issue #9): model unknown, and a note, never an invented model.
		{"results_no-emotion.json", ingest.FileMetadata{Condition: emobench.ConditionWithoutEmotions, Note: `file name results_no-emotion.json does not name a model ("results" is not a model's name)`}},
		{"2024-05-01-retail.json", ingest.FileMetadata{Domain: "retail", Note: `file name 2024-05-01-retail.json does not name a model ("2024-05-01" is not a model's name)`}},
		{"my_experiment_retail.json", ingest.FileMetadata{Domain: "retail", Note: `file name my_experiment_retail.json does not name a model ("my_experiment" is not a model's name)`}},
		{"output-with-emotions.json", ingest.FileMetadata{Condition: emobench.ConditionWithEmotions, Note: `file name output-with-emotions.json does not name a model ("output" is not a model's name)`}},
		{"run1-airline.json", ingest.FileMetadata{Domain: "airline", Note: `file name run1-airline.json does not name a model ("run1" is not a model's name)`}},
		{"20240501_retail_with_emotions.json", ingest.FileMetadata{Domain: "retail", Condition: emobench.ConditionWithEmotions, Note: `file name 20240501_retail_with_emotions.json does not name a model ("20240501" is not a model's name)`}},
		{"42-telecom.json", ingest.FileMetadata{Domain: "telecom", Note: `file name 42-telecom.json does not name a model ("42" is not a model's name)`}},
		{"Test-Retail.json", ingest.FileMetadata{Domain: "retail", Note: `file name Test-Retail.json does not name a model ("Test" is not a model's name)`}},
		// Model names that begin like those words stay models.
		{"o1-retail.json", ingest.FileMetadata{Model: "o1", Domain: "retail"}},
		{"gemini-2.0-flash-exp-airline.json", ingest.FileMetadata{Model: "gemini-2.0-flash-exp", Domain: "airline"}},
		{"outlines-llama-retail.json", ingest.FileMetadata{Model: "outlines-llama", Domain: "retail"}},
		// A benchmark's or a harness's name first, with or without a
		// domain, in any case: the note says so.
		{"taubench-run1.json", ingest.FileMetadata{Note: "file name taubench-run1.json begins with a benchmark's name (taubench), not a model's"}},
		{"airline/tau-bench-claude-3.json", ingest.FileMetadata{Domain: "airline", Note: "file name tau-bench-claude-3.json begins with a benchmark's name (tau-bench), not a model's"}},
		{"tau-bench-claude-3-retail.json", ingest.FileMetadata{Domain: "retail", Note: "file name tau-bench-claude-3-retail.json begins with a benchmark's name (tau-bench), not a model's"}},
		{"tau2-bench-gpt-4o.json", ingest.FileMetadata{Note: "file name tau2-bench-gpt-4o.json begins with a benchmark's name (tau2-bench), not a model's"}},
		{"TAU2-qwen3-with-emotions.json", ingest.FileMetadata{Condition: emobench.ConditionWithEmotions, Note: "file name TAU2-qwen3-with-emotions.json begins with a benchmark's name (TAU2), not a model's"}},
		{"Tau-Trait-gpt5.json", ingest.FileMetadata{Note: "file name Tau-Trait-gpt5.json begins with a benchmark's name (Tau-Trait), not a model's"}},
		{"tau-emotion-results.json", ingest.FileMetadata{Note: "file name tau-emotion-results.json begins with a benchmark's name (tau-emotion), not a model's"}},
		{"tau_bench_gpt-4o-retail.json", ingest.FileMetadata{Domain: "retail", Note: "file name tau_bench_gpt-4o-retail.json begins with a benchmark's name (tau_bench), not a model's"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got, want := ingest.MetadataFromFileName(tt.path), tt.want; got != want {
				t.Fatalf("MetadataFromFileName(%q) = %+v, want %+v", tt.path, got, want)
			}
		})
	}
}

// FuzzMetadataFromFileName: any name parses without panic, and what it
// infers is taken from the name or its folder.
func FuzzMetadataFromFileName(f *testing.F) {
	for _, seed := range []string{
		"qwen3-retail-with-emotions.json", "gpt-4.1-retail.json", "a/b/retail/x.json",
		"tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0314124543.json",
		"react-m-1e-05_range_1-2_userx_123456-no_emotion.json", "--with-emotions-.json", "_no_emotions_",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, path string) {
		meta := ingest.MetadataFromFileName(path)
		for field, v := range map[string]string{"model": meta.Model, "domain": meta.Domain, "user model": meta.UserModel, "temperature": meta.Temperature} {
			if !strings.Contains(strings.ToLower(path), strings.ToLower(v)) {
				t.Fatalf("%s %q is not in %q", field, v, path)
			}
		}
		switch meta.Condition {
		case "", emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions:
		default:
			t.Fatalf("condition %q", meta.Condition)
		}
	})
}
