// The official JS SDK agent (@a2a-js/sdk express server) that tests/test_probe_js.py probes.
//
// Built only from the SDK's own parts: DefaultRequestHandler with the in-memory task and push
// stores and the SDK's push sender, mounted with jsonRpcHandler at /jsonrpc, restHandler at /rest
// and agentCardHandler at the well-known path. The executor is the same as the Python reference
// agent's (tests/sdk_reference_agent.py):
//   "slow ..."      WORKING, ~0.8 s of work (watching for a cancel), then the echo and COMPLETED;
//   "need input"    INPUT_REQUIRED; the next message on that task completes it;
//   anything else   WORKING, an artifact in two chunks, COMPLETED.
//
// Usage: node agent.mjs  (listens on 127.0.0.1, a free port; prints "listening <base url>")

import express from "express";
import { Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";

const SLOW_MS = 800;
const canceled = new Set();

function now() {
  return new Date().toISOString();
}

function agentMessage(taskId, contextId, text) {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: "text", value: text } }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function status(taskId, contextId, state, message) {
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, message, timestamp: now() },
    metadata: undefined,
  });
}

function chunk(taskId, contextId, text, append, lastChunk) {
  return AgentEvent.artifactUpdate({
    taskId,
    contextId,
    artifact: {
      artifactId: `artifact-${taskId}`,
      name: "echo",
      description: "",
      parts: [{ content: { $case: "text", value: text } }],
      metadata: undefined,
      extensions: [],
    },
    append,
    lastChunk,
    metadata: undefined,
  });
}

function textOf(message) {
  const part = (message?.parts ?? []).find((p) => p.content?.$case === "text");
  return part ? part.content.value : "(no text)";
}

const executor = {
  async execute(context, bus) {
    const { taskId, contextId } = context;
    const text = textOf(context.userMessage);
    const current = context.task;
    bus.publish(
      AgentEvent.task(
        current ?? {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
          artifacts: [],
          history: [context.userMessage],
          metadata: undefined,
        },
      ),
    );
    const continuing = current?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    if (!continuing && text.startsWith("need input")) {
      const question = agentMessage(taskId, contextId, "Which format do you want the answer in?");
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, question));
      bus.finished();
      return;
    }
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, "Working on it.")));
    if (text.startsWith("slow")) {
      for (let waited = 0; waited < SLOW_MS; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (canceled.has(taskId)) {
          return;
        }
      }
    }
    bus.publish(chunk(taskId, contextId, `Echo: ${text}`, false, false));
    bus.publish(chunk(taskId, contextId, ".", true, true));
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED, undefined));
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    canceled.add(taskId);
    bus.publish(status(taskId, "", TaskState.TASK_STATE_CANCELED, undefined));
    bus.finished();
  },
};

const app = express();
const server = app.listen(0, "127.0.0.1", () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: "JS SDK reference agent",
    description: "Official @a2a-js/sdk agent with every 1.0 operation, for a2a-schema-suite's probe tests.",
    supportedInterfaces: [
      { url: `${base}/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: `${base}/rest`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: true },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "echo",
        name: "Echo",
        description: "Echoes the text.",
        tags: ["echo"],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    pushStore,
    new DefaultPushNotificationSender(pushStore),
    card,
  );
  const options = { requestHandler: handler, userBuilder: UserBuilder.noAuthentication };
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/jsonrpc", jsonRpcHandler(options));
  app.use("/rest", restHandler(options));
  console.log(`listening ${base}`);
});
