// SDK adapter (protocol 1, see docs/SDK_ADAPTERS.md) for the TypeScript SDK @a2a-js/sdk.
//
// 1.0: the SDK's generated types, `fromJSON` to read a document and `toJSON` to write it back
// (the canonical answer). These readers never reject a member they do not know and coerce
// most values (String(5) is "5"), so the adapter reports what they do: a document is
// accepted unless `fromJSON` throws.
// 0.3: the SDK has no 0.3 types; its compat layer reads only agent cards, as its client does
// (`isLegacyAgentCard`, then `parseLegacyAgentCard`, which converts to a 1.0 card: no
// canonical 0.3 document to compare, so none is given).
// Run it with `npm ci` done in this directory; it answers one JSON line per request line.
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as sdk from "@a2a-js/sdk";
import { isLegacyAgentCard, parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";

const V1_NAMES = [
  "AgentCard", "AgentCapabilities", "AgentCardSignature", "AgentExtension", "AgentInterface",
  "AgentProvider", "AgentSkill", "OAuthFlows", "SecurityRequirement", "SecurityScheme", "Task",
  "TaskStatus", "Message", "Part", "Artifact", "TaskStatusUpdateEvent", "TaskArtifactUpdateEvent",
  "StreamResponse", "SendMessageRequest", "SendMessageConfiguration", "SendMessageResponse",
  "TaskPushNotificationConfig", "AuthenticationInfo", "GetTaskRequest", "CancelTaskRequest",
  "SubscribeToTaskRequest", "GetExtendedAgentCardRequest", "GetTaskPushNotificationConfigRequest",
  "DeleteTaskPushNotificationConfigRequest", "ListTaskPushNotificationConfigsRequest",
  "ListTaskPushNotificationConfigsResponse", "ListTasksRequest", "ListTasksResponse",
];
// Only the protocol's 1.0 types that this SDK version really exports with fromJSON/toJSON.
const V1_TYPES = V1_NAMES.filter(
  (name) => typeof sdk[name]?.fromJSON === "function" && typeof sdk[name]?.toJSON === "function",
);
const V03_TYPES = ["AgentCard"];

function sdkVersion() {
  const require = createRequire(import.meta.url);
  const main = require.resolve("@a2a-js/sdk");
  let dir = main.slice(0, main.lastIndexOf("/node_modules/@a2a-js/sdk/") + "/node_modules/@a2a-js/sdk/".length);
  return JSON.parse(readFileSync(dir + "package.json", "utf8")).version;
}

function describe(error) {
  return `${error?.name ?? "Error"}: ${error?.message ?? String(error)}`;
}

function parse(request) {
  const { id, version, type, document } = request;
  try {
    if (version === "v1_0" && V1_TYPES.includes(type)) {
      const value = sdk[type].fromJSON(document);
      return { id, accepted: true, canonical: sdk[type].toJSON(value) };
    }
    if (version === "v0_3" && type === "AgentCard") {
      if (!isLegacyAgentCard(document)) {
        return { id, accepted: false, error: "isLegacyAgentCard: not recognised as a 0.3 agent card" };
      }
      parseLegacyAgentCard(document);
      return { id, accepted: true };
    }
    return { id, accepted: false, error: `unsupported type ${version}/${type}` };
  } catch (error) {
    return { id, accepted: false, error: describe(error) };
  }
}

function answer(request) {
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return { id: null, error: "bad request: a request is a JSON object" };
  }
  switch (request.op) {
    case "hello":
      return {
        protocol: 1,
        sdk: { name: "@a2a-js/sdk", version: sdkVersion(), language: "typescript" },
        types: { v1_0: V1_TYPES, v0_3: V03_TYPES },
        unknownMembers: { v1_0: "ignore", v0_3: "ignore" },
      };
    case "parse":
      return parse(request);
    default:
      return { id: request.id ?? null, error: `unknown op ${JSON.stringify(request.op)}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    process.stdout.write(JSON.stringify({ id: null, error: `bad request: ${describe(error)}` }) + "\n");
    return;
  }
  if (request?.op === "bye") {
    lines.close();
    return;
  }
  let reply;
  try {
    reply = JSON.stringify(answer(request));
  } catch (error) { // a canonical that cannot be written as JSON (a BigInt, a cycle)
    reply = JSON.stringify({ id: request?.id ?? null, accepted: false, error: `canonical: ${describe(error)}` });
  }
  process.stdout.write(reply + "\n");
});
