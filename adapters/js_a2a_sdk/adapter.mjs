// SDK adapter (protocol 1, see docs/SDK_ADAPTERS.md) for the TypeScript SDK @a2a-js/sdk.
//
// 1.0: the SDK's generated types, `fromJSON` to read a document and `toJSON` to write it back
// (the canonical answer). These readers never reject a member they do not know and coerce
// most values (String(5) is "5"), so the adapter reports what they do: a document is
// accepted unless `fromJSON` throws.
// JSON-RPC requests (1.0 `JSONRPCRequest`) go through the SDK's own server code,
// `JsonRpcTransportHandler.handle`, with a request handler that only records the params message
// the SDK parsed (the document is accepted when the SDK gets that far); canonical is the envelope
// with those params written back by `toJSON`.
// 0.3: the SDK has no 0.3 types. Its compat layer reads agent cards as its client does
// (`isLegacyAgentCard`, then `parseLegacyAgentCard`) and JSON-RPC requests as its server does
// (`LegacyJsonRpcTransportHandler.handle`, with the same recording handler). Both convert to 1.0
// objects, so there is no canonical 0.3 document to compare and none is given.
// Run it with `npm ci` done in this directory; it answers one JSON line per request line.
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as sdk from "@a2a-js/sdk";
import { isLegacyAgentCard, parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler } from "@a2a-js/sdk/server";

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
// The params message of each 1.0 JSON-RPC method (A2A_REFERENCE §5), to write the params back.
const V1_PARAMS = {
  SendMessage: "SendMessageRequest", SendStreamingMessage: "SendMessageRequest",
  GetTask: "GetTaskRequest", ListTasks: "ListTasksRequest", CancelTask: "CancelTaskRequest",
  SubscribeToTask: "SubscribeToTaskRequest",
  CreateTaskPushNotificationConfig: "TaskPushNotificationConfig",
  GetTaskPushNotificationConfig: "GetTaskPushNotificationConfigRequest",
  ListTaskPushNotificationConfigs: "ListTaskPushNotificationConfigsRequest",
  DeleteTaskPushNotificationConfig: "DeleteTaskPushNotificationConfigRequest",
  GetExtendedAgentCard: "GetExtendedAgentCardRequest",
};
// 0.3 request types and the method each one is a call of (A2ARequest: any of them).
const V03_REQUESTS = {
  SendMessageRequest: "message/send", SendStreamingMessageRequest: "message/stream",
  GetTaskRequest: "tasks/get", CancelTaskRequest: "tasks/cancel",
  TaskResubscriptionRequest: "tasks/resubscribe",
  SetTaskPushNotificationConfigRequest: "tasks/pushNotificationConfig/set",
  GetTaskPushNotificationConfigRequest: "tasks/pushNotificationConfig/get",
  ListTaskPushNotificationConfigRequest: "tasks/pushNotificationConfig/list",
  DeleteTaskPushNotificationConfigRequest: "tasks/pushNotificationConfig/delete",
  GetAuthenticatedExtendedCardRequest: "agent/getAuthenticatedExtendedCard",
};
const V03_TYPES = ["AgentCard", "A2ARequest", ...Object.keys(V03_REQUESTS)];

// A request handler that records the first request message the SDK hands it, then stops.
function recordingHandler(record) {
  return new Proxy({}, {
    get(_target, name) {
      if (name === "then") return undefined; // not a promise
      if (name === "getAgentCard") return async () => ({ capabilities: { streaming: true } });
      return (...args) => {
        record.called = String(name);
        record.request = args[0];
        throw new Error("recorded by the adapter");
      };
    },
  });
}
const context = { setTenant() {}, tenant: "" };

async function dispatch(HandlerClass, document) {
  const record = { called: null, request: undefined };
  const envelope = await new HandlerClass(recordingHandler(record)).handle(document, context);
  return { record, envelope };
}

function rejection(envelope) {
  const error = envelope?.error;
  return error ? `JSON-RPC error ${error.code}: ${error.message}` : "the SDK did not dispatch the request";
}

async function rpcV1({ id, method, document }) {
  if (method !== undefined && document?.method !== method) {
    return { id, accepted: false, error: `a ${document?.method} call, not a ${method} call` };
  }
  const { record, envelope } = await dispatch(JsonRpcTransportHandler, document);
  if (!record.called) return { id, accepted: false, error: rejection(envelope) };
  const canonical = { jsonrpc: document.jsonrpc };
  if ("id" in document) canonical.id = document.id;
  canonical.method = document.method;
  canonical.params = sdk[V1_PARAMS[document.method]].toJSON(record.request);
  return { id, accepted: true, canonical };
}

async function rpcV03({ id, type, document }) {
  const wanted = V03_REQUESTS[type];
  if (wanted !== undefined && document?.method !== wanted) {
    return { id, accepted: false, error: `a ${document?.method} call, not a ${wanted} call` };
  }
  const { record, envelope } = await dispatch(LegacyJsonRpcTransportHandler, document);
  return record.called ? { id, accepted: true } : { id, accepted: false, error: rejection(envelope) };
}

function sdkVersion() {
  const require = createRequire(import.meta.url);
  const main = require.resolve("@a2a-js/sdk");
  let dir = main.slice(0, main.lastIndexOf("/node_modules/@a2a-js/sdk/") + "/node_modules/@a2a-js/sdk/".length);
  return JSON.parse(readFileSync(dir + "package.json", "utf8")).version;
}

function describe(error) {
  return `${error?.name ?? "Error"}: ${error?.message ?? String(error)}`;
}

async function parse(request) {
  const { id, version, type, document } = request;
  try {
    if (version === "v1_0" && V1_TYPES.includes(type)) {
      const value = sdk[type].fromJSON(document);
      return { id, accepted: true, canonical: sdk[type].toJSON(value) };
    }
    if (version === "v1_0" && type === "JSONRPCRequest") {
      return await rpcV1(request);
    }
    if (version === "v0_3" && (type === "A2ARequest" || type in V03_REQUESTS)) {
      return await rpcV03(request);
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

async function answer(request) {
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return { id: null, error: "bad request: a request is a JSON object" };
  }
  switch (request.op) {
    case "hello":
      return {
        protocol: 1,
        sdk: { name: "@a2a-js/sdk", version: sdkVersion(), language: "typescript" },
        types: { v1_0: [...V1_TYPES, "JSONRPCRequest"], v0_3: V03_TYPES },
        unknownMembers: { v1_0: "ignore", v0_3: "ignore" },
      };
    case "parse":
      return await parse(request);
    default:
      return { id: request.id ?? null, error: `unknown op ${JSON.stringify(request.op)}` };
  }
}

// Requests are answered one at a time, in order (an answer may wait for the SDK's promises).
let pending = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  pending = pending.then(() => handleLine(line));
});

async function handleLine(line) {
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
    reply = JSON.stringify(await answer(request));
  } catch (error) { // a canonical that cannot be written as JSON (a BigInt, a cycle)
    reply = JSON.stringify({ id: request?.id ?? null, accepted: false, error: `canonical: ${describe(error)}` });
  }
  process.stdout.write(reply + "\n");
}
