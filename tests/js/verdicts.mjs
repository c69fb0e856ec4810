// Batch verdicts of the JavaScript validators for tests/test_validator_parity.py: one process
// for every case, each schema compiled once.
//
// stdin:  {"bundles": {"<key>": <document written by `a2a-schema-suite bundle`>, ...},
//          "cases": [{"bundle": "<key of a version bundle>", "uri": "<schema $id[#pointer]>",
//                     "entry": "<key of a `bundle --schema` document for that uri>",
//                     "data": <instance>}, ...]}
// stdout: {"versions": {"ajv": "8.x", ...}, "ajv": [verdict, ...], "hyperjump": [verdict, ...]}
//         a verdict is true (valid), false (invalid) or "error: <why>" (could not validate).
//
// Each validator is used as the README recipe shows:
// - ajv 8 (Ajv2020) with ajv-formats: the version bundle added whole, a schema compiled from
//   {"$ref": "<embedded $id>[#pointer]"};
// - @hyperjump/json-schema with its default Draft 2020-12 behaviour (format is an annotation):
//   it finds an embedded resource only from inside the document that embeds it, so each entry
//   is a `bundle --schema` document (root $ref), registered under a retrieval URI of its own.
// Nothing is fetched: every $ref resolves inside a bundle.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { registerSchema, validate } from "@hyperjump/json-schema/draft-2020-12";

const here = dirname(fileURLToPath(import.meta.url));
// the installed versions (package.json pins them; package-lock.json pins their dependencies)
const versions = Object.fromEntries(
  ["ajv", "ajv-formats", "@hyperjump/json-schema"].map((name) => [
    name,
    JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf-8")).version,
  ]),
);

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { bundles, cases } = JSON.parse(Buffer.concat(chunks).toString("utf-8"));

const failure = (error) => `error: ${error?.message ?? error}`;

// ajv: one instance per version bundle
const ajvs = new Map();
const ajvCompiled = new Map();
const ajvVerdict = ({ bundle, uri, data }) => {
  const key = JSON.stringify([bundle, uri]);
  if (!ajvCompiled.has(key)) {
    if (!ajvs.has(bundle)) {
      const ajv = new Ajv2020({ strictTypes: false });
      addFormats(ajv);
      ajv.addSchema(bundles[bundle]);
      ajvs.set(bundle, ajv);
    }
    ajvCompiled.set(key, ajvs.get(bundle).compile({ $ref: uri }));
  }
  return ajvCompiled.get(key)(data) === true;
};

// hyperjump: each entry document registered once, under a retrieval URI of its own
const entries = new Map();
const hyperjumpVerdict = async ({ entry, data }) => {
  if (!entries.has(entry)) {
    const retrieval = `https://a2a-schema-suite.invalid/parity/${entries.size}.schema.json`;
    registerSchema(bundles[entry], retrieval);
    entries.set(entry, await validate(retrieval));
  }
  return entries.get(entry)(data).valid === true;
};

const ajv = [];
const hyperjump = [];
for (const item of cases) {
  try {
    ajv.push(ajvVerdict(item));
  } catch (error) {
    ajv.push(failure(error));
  }
  try {
    hyperjump.push(await hyperjumpVerdict(item));
  } catch (error) {
    hyperjump.push(failure(error));
  }
}

process.stdout.write(JSON.stringify({ versions, ajv, hyperjump }));
