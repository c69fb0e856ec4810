"""One-line fix hints: what the agent's authors should change, per finding.

A failed probe result carries the hint of its most important finding in ``reason``; the findings
themselves stay in ``errors``.
"""

from __future__ import annotations

from a2a_schema_suite.results import ErrorDetail

RULE_HINTS: dict[str, str] = {
    "lifecycle-terminal": "a task reached a terminal state and then changed again: guard terminal "
    "states before emitting",
    "artifact-last-chunk": "an artifact chunk came after lastChunk: true: send nothing more for an "
    "artifactId once its last chunk is out",
    "artifact-append": "append: true continues an artifact: send its first chunk without append",
    "stream-ids": "put the stream's taskId and contextId on every status and artifact update",
    "stream-order": "start a task stream with the Task (or send exactly one Message and close)",
    "final-flag": "0.3: set final: true on the last status update only, and on every terminal one",
    "jsonrpc-envelope": 'wrap every answer as {"jsonrpc": "2.0", "id": <request id>, "result"|"error"}',
    "jsonrpc-id": "echo the request's id in every JSON-RPC response, streamed ones included",
    "jsonrpc-error": "the agent answered with a JSON-RPC error where a result was expected",
    "json-line": "send one strict JSON value per SSE data field (no NaN, no duplicate keys)",
    "completed-has-artifact": "policy: attach the task's output as an artifact before COMPLETED",
    "https-interface": "policy: serve HTTP interfaces over https (only loopback hosts may use http)",
    "binding-uri": "policy: name a custom protocolBinding with an absolute http(s) URI",
    "stream-end": "keep the stream open until the task is terminal or interrupted, then close it",
    "stream-error-event": "the agent reported an error inside the stream (event: error)",
    "sse": "answer streaming requests with 200 and Content-Type: text/event-stream",
    "http-status": "answer with the HTTP status the binding prescribes (A2A_REFERENCE §5.1, §6)",
    "content-type": "send JSON bodies with Content-Type application/json (REST: application/a2a+json)",
    "json-body": "send a single strict JSON document as the body",
    "transport": "answer within the time and size limits, over a connection that stays open",
    "card-version": "serve the card shape of the protocol version it declares",
    "send-state": "a blocking send returns the task only once it is terminal or interrupted "
    "(or the client asked for returnImmediately)",
    "task-id": "GetTask must return the task that was asked for",
    "error-code": "map each failure to its A2A error code (A2A_REFERENCE §5.1)",
    "grpc-status": "answer with the gRPC status A2A_REFERENCE §5.1 maps the error to",
    # probe --operations
    "history-length": "return at most historyLength messages of history (none for 0)",
    "list-paging": "give each page at most pageSize tasks and a nextPageToken that leads to the next "
    'page; "" on the last page',
    "list-filter": "return only the tasks that match the ListTasks filters (contextId, status)",
    "list-contents": "list every task the caller can see that matches the filters",
    "list-artifacts": "leave artifacts out of ListTasks unless includeArtifacts is true",
    "cancel-state": "answer CancelTask with the task in TASK_STATE_CANCELED",
    "cancel-resurrects": "a canceled task stays CANCELED: stop the work it was doing and emit nothing more",
    "subscribe-task": "SubscribeToTask streams the task asked for, from its current state to its end",
    "push-config": "store push configs as sent and return them from get, list and delete",
    "push-auth": "send each push delivery with the configured Authorization (scheme and credentials) "
    "or token",
    "push-delivery": "POST each push delivery as one strict JSON StreamResponse",
    "push-task": "deliver a task's events only to the configs registered for that task",
    "push-terminal": "deliver every status change to the webhook, the terminal one included",
    "push-state": "deliver the state the task really has",
    "context-id": "keep the contextId the client sent, or refuse the message: never mint another",
    "multi-turn": "answer a follow-up message with taskId on the same task and contextId",
}


def hint_for(error: ErrorDetail) -> str:
    """The fix hint for one finding or schema error."""
    if error.rule in RULE_HINTS:
        return RULE_HINTS[error.rule]
    if error.keyword == "load":
        return "send strict JSON"
    where = "" if error.path == "$" else f" at {error.path}"
    return f"fix the payload{where} ({error.keyword}): {error.message}"


def reason_for(errors: tuple[ErrorDetail, ...], override: str | None = None) -> str:
    """The reason of a failed result: the first finding's hint, and how many more there are."""
    head = override or hint_for(errors[0])
    more = len(errors) - 1
    return head + (f" (and {more} more problem{'s' if more != 1 else ''})" if more > 0 else "")
