// The official AWS SDK for JavaScript v3 clients against the AWS emulator, configured only through
// the environment the standalone emulator prints (AWS_ENDPOINT_URL_ECR,
// AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL, AWS_ENDPOINT_URL_BEDROCK_AGENTCORE, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_REGION), exactly as a user's script would be. The emulator's /_emulator/ control paths seed and break it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ECRClient, GetAuthorizationTokenCommand } from "@aws-sdk/client-ecr";
import {
  BedrockAgentCoreControlClient,
  GetCodeInterpreterCommand,
  ResourceNotFoundException,
  ThrottlingException,
} from "@aws-sdk/client-bedrock-agentcore-control";
import {
  BedrockAgentCoreClient,
  InvokeCodeInterpreterCommand,
  StartCodeInterpreterSessionCommand,
  StopCodeInterpreterSessionCommand,
  ResourceNotFoundException as DataResourceNotFoundException,
  ValidationException,
} from "@aws-sdk/client-bedrock-agentcore";

const env = process.env;
const region = env.AWS_REGION;
const ecrURL = env.AWS_ENDPOINT_URL_ECR;
const agentCoreURL = env.AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL;
const agentCoreDataURL = env.AWS_ENDPOINT_URL_BEDROCK_AGENTCORE;

// control calls one of the emulator's unauthenticated /_emulator/ paths.
async function control(baseURL, method, path, body) {
  const resp = await fetch(new URL(`/_emulator/${path}`, baseURL), {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!resp.ok) {
    assert.fail(`${method} /_emulator/${path}: ${resp.status} ${await resp.text()}`);
  }
  return resp.status === 204 ? undefined : resp.json();
}

const wrongSecret = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: "not-the-secret" };
const unknownKey = { accessKeyId: "AKIAUNKNOWNKEY000001", secretAccessKey: env.AWS_SECRET_ACCESS_KEY };

test("the environment names every setting", () => {
  for (const name of ["AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL",
    "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"]) {
    assert.ok(env[name], `${name} is not set`);
  }
});

test("ECR GetAuthorizationToken: a docker login for the default registry, valid 12 hours", async () => {
  const before = Date.now();
  const out = await new ECRClient({}).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.authorizationData.length, 1);
  const [data] = out.authorizationData;
  const [user, password] = Buffer.from(data.authorizationToken, "base64").toString().split(/:(.*)/s);
  assert.equal(user, "AWS");
  assert.ok(password.length > 0);
  assert.ok(data.expiresAt instanceof Date, `expiresAt is ${data.expiresAt}`);
  const hours = (data.expiresAt.getTime() - before) / 3600e3;
  assert.ok(hours > 11.9 && hours < 12.1, `expires in ${hours} h`);
  assert.match(data.proxyEndpoint, new RegExp(`^https://\\d{12}\\.dkr\\.ecr\\.${region}\\.amazonaws\\.com$`));
});

test("ECR: a wrong secret fails the signature check, an unknown key id is unrecognized", async () => {
  await assert.rejects(new ECRClient({ credentials: wrongSecret }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "InvalidSignatureException" && err.$metadata.httpStatusCode === 400);
  await assert.rejects(new ECRClient({ credentials: unknownKey }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "UnrecognizedClientException");
});

test("SigV4 as AWS checks it: the endpoint's region, and a clock within 15 minutes that the SDK corrects", async () => {
  const otherRegion = region === "eu-west-3" ? "eu-west-2" : "eu-west-3";
  await assert.rejects(new BedrockAgentCoreControlClient({ region: otherRegion })
    .send(new GetCodeInterpreterCommand({ codeInterpreterId: "aws.codeinterpreter.v1" })),
  (err) => err.name === "InvalidSignatureException" && err.message.startsWith("Credential should be scoped to a valid region"));

  const slow = { systemClockOffset: -20 * 60 * 1000 }; // signs 20 minutes in the past
  await assert.rejects(new ECRClient({ ...slow, maxAttempts: 1 }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "InvalidSignatureException" && err.message.startsWith("Signature expired: "));
  // The SDK takes the server's Date header, corrects its clock and retries.
  const out = await new ECRClient({ ...slow, maxAttempts: 2 }).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.$metadata.attempts, 2);
});

test("AgentCore GetCodeInterpreter: a seeded custom interpreter", async () => {
  const id = "conformance_ci-a1b2c3d4e5";
  await control(agentCoreURL, "PUT", `code-interpreters/${id}`, { status: "CREATE_FAILED", failureReason: "role validation failed" });
  const out = await new BedrockAgentCoreControlClient({}).send(new GetCodeInterpreterCommand({ codeInterpreterId: id }));
  assert.equal(out.codeInterpreterId, id);
  assert.equal(out.name, "conformance_ci");
  assert.equal(out.status, "CREATE_FAILED");
  assert.equal(out.failureReason, "role validation failed");
  assert.match(out.codeInterpreterArn, new RegExp(`^arn:aws:bedrock-agentcore:${region}:\\d{12}:code-interpreter/${id}$`));
  assert.ok(out.createdAt instanceof Date && !Number.isNaN(out.createdAt.getTime()), `createdAt is ${out.createdAt}`);
  assert.equal(out.networkConfiguration.networkMode, "PUBLIC");
});

test("AgentCore: a missing interpreter is ResourceNotFoundException (404)", async () => {
  const client = new BedrockAgentCoreControlClient({});
  await assert.rejects(client.send(new GetCodeInterpreterCommand({ codeInterpreterId: "missing-a1b2c3d4e5" })),
    (err) => err instanceof ResourceNotFoundException && err.$metadata.httpStatusCode === 404);
});

test("AgentCore: refused credentials", async () => {
  const get = (credentials) => new BedrockAgentCoreControlClient({ credentials })
    .send(new GetCodeInterpreterCommand({ codeInterpreterId: "missing-a1b2c3d4e5" }));
  await assert.rejects(get(wrongSecret), (err) => err.name === "InvalidSignatureException" && err.$metadata.httpStatusCode === 403);
  await assert.rejects(get(unknownKey), (err) => err.name === "UnrecognizedClientException" && err.$metadata.httpStatusCode === 403);
});

test("injected 5xx answers are retried by the SDK's standard retry strategy", async () => {
  await control(ecrURL, "POST", "faults", { count: 2, status: 503 });
  const out = await new ECRClient({ maxAttempts: 3 }).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.$metadata.attempts, 3);
});

test("injected throttling is AgentCore's modeled ThrottlingException (429), retried by the SDK", async () => {
  const id = "throttled-a1b2c3d4e5";
  await control(agentCoreURL, "PUT", `code-interpreters/${id}`, { status: "READY" });
  await control(agentCoreURL, "POST", "faults", { count: 1, status: 429 });
  await assert.rejects(new BedrockAgentCoreControlClient({ maxAttempts: 1 }).send(new GetCodeInterpreterCommand({ codeInterpreterId: id })),
    (err) => err instanceof ThrottlingException && err.$metadata.httpStatusCode === 429);
  await control(agentCoreURL, "POST", "faults", { count: 1, status: 429 });
  const out = await new BedrockAgentCoreControlClient({ maxAttempts: 3 }).send(new GetCodeInterpreterCommand({ codeInterpreterId: id }));
  assert.equal(out.status, "READY");
  assert.equal(out.$metadata.attempts, 2);
});

test("ECR throttling is a 400 ThrottlingException, retried by the SDK", async () => {
  await control(ecrURL, "POST", "faults", { count: 1, status: 429 });
  await assert.rejects(new ECRClient({ maxAttempts: 1 }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "ThrottlingException" && err.$metadata.httpStatusCode === 400);
  await control(ecrURL, "POST", "faults", { count: 1, status: 429 });
  const out = await new ECRClient({ maxAttempts: 3 }).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.$metadata.attempts, 2);
});

test("an injected fault can echo the request body in its message", async () => {
  await control(ecrURL, "POST", "faults", { count: 1, status: 500, echoBody: true });
  await assert.rejects(
    new ECRClient({ maxAttempts: 1 }).send(new GetAuthorizationTokenCommand({ registryIds: ["210987654321"] })),
    (err) => err.name === "ServerException" && err.message.includes('"registryIds":["210987654321"]'));
});

// executeCommand runs command in a session and reads InvokeCodeInterpreter's event stream to its
// end, as the SDK hands it over: an async iterable of CodeInterpreterStreamOutput unions.
async function executeCommand(client, codeInterpreterIdentifier, sessionId, command) {
  const out = await client.send(new InvokeCodeInterpreterCommand({
    codeInterpreterIdentifier, sessionId, name: "executeCommand", arguments: { command },
  }));
  assert.equal(out.sessionId, sessionId);
  const results = [];
  for await (const event of out.stream) {
    assert.ok(event.result, `an event other than a result: ${JSON.stringify(Object.keys(event))}`);
    results.push(event.result);
  }
  return results;
}

test("AgentCore data plane: a session runs executeCommand, its result read from the event stream, until it is stopped", async () => {
  const client = new BedrockAgentCoreClient({});
  const id = "aws.codeinterpreter.v1";
  const started = await client.send(new StartCodeInterpreterSessionCommand({
    codeInterpreterIdentifier: id, name: "conformance", sessionTimeoutSeconds: 300,
  }));
  assert.equal(started.codeInterpreterIdentifier, id);
  assert.match(started.sessionId, /^[0-9a-zA-Z]{1,40}$/);
  assert.ok(started.createdAt instanceof Date && !Number.isNaN(started.createdAt.getTime()), `createdAt is ${started.createdAt}`);
  const live = await control(agentCoreDataURL, "GET", "code-interpreter-sessions");
  const mine = live.find((s) => s.sessionId === started.sessionId);
  assert.ok(mine, `the session is not among the live ones: ${JSON.stringify(live)}`);
  assert.equal(mine.name, "conformance");
  assert.equal((Date.parse(mine.expiresAt) - Date.parse(mine.createdAt)) / 1000, 300);

  const [failed, ...more] = await executeCommand(client, id, started.sessionId, "echo hello; echo oops >&2; exit 3");
  assert.equal(more.length, 0);
  assert.equal(failed.isError, true);
  assert.equal(failed.structuredContent.exitCode, 3);
  assert.equal(failed.structuredContent.stdout, "hello\n");
  assert.equal(failed.structuredContent.stderr, "oops\n");
  assert.equal(typeof failed.structuredContent.executionTime, "number");
  assert.deepEqual(failed.content.map((b) => b.type), ["text"]);

  const [imported] = await executeCommand(client, id, started.sessionId, 'python3 -c "import pandas" && echo imported');
  assert.equal(imported.isError, false);
  assert.equal(imported.structuredContent.exitCode, 0);
  assert.equal(imported.structuredContent.stdout, "imported\n");

  const stopped = await client.send(new StopCodeInterpreterSessionCommand({ codeInterpreterIdentifier: id, sessionId: started.sessionId }));
  assert.equal(stopped.sessionId, started.sessionId);
  assert.ok(stopped.lastUpdatedAt instanceof Date, `lastUpdatedAt is ${stopped.lastUpdatedAt}`);
  const after = await control(agentCoreDataURL, "GET", "code-interpreter-sessions");
  assert.ok(!after.some((s) => s.sessionId === started.sessionId), "the stopped session is still live");
  await assert.rejects(executeCommand(client, id, started.sessionId, "true"),
    (err) => err instanceof DataResourceNotFoundException && err.$metadata.httpStatusCode === 404);
  await assert.rejects(client.send(new StopCodeInterpreterSessionCommand({ codeInterpreterIdentifier: id, sessionId: started.sessionId })),
    (err) => err instanceof DataResourceNotFoundException);
});

test("AgentCore data plane: a failure while the tool runs is an exception event in the stream, retried by the SDK", async () => {
  const client = new BedrockAgentCoreClient({});
  const id = "aws.codeinterpreter.v1";
  const { sessionId } = await client.send(new StartCodeInterpreterSessionCommand({ codeInterpreterIdentifier: id }));
  const fault = { count: 1, status: 429, operation: "InvokeCodeInterpreter", inStream: true };
  try {
    await control(agentCoreDataURL, "POST", "faults", fault);
    await assert.rejects(executeCommand(new BedrockAgentCoreClient({ maxAttempts: 1 }), id, sessionId, "echo never"),
      (err) => err.name === "ThrottlingException" && err.message.includes("injected by awsemu"));
    // The SDK reads the stream's first event before it answers: a throttling event there is retried.
    await control(agentCoreDataURL, "POST", "faults", fault);
    const [result] = await executeCommand(client, id, sessionId, "echo after");
    assert.equal(result.structuredContent.stdout, "after\n");
    const invokes = (await control(agentCoreDataURL, "GET", "requests")).filter((r) => r.operation === "InvokeCodeInterpreter").slice(-3);
    assert.deepEqual(invokes.map((r) => r.errorCode), ["ThrottlingException", "ThrottlingException", ""]);
  } finally {
    await client.send(new StopCodeInterpreterSessionCommand({ codeInterpreterIdentifier: id, sessionId }));
  }
});

test("AgentCore data plane: what AgentCore refuses before running anything", async () => {
  const client = new BedrockAgentCoreClient({});
  await assert.rejects(client.send(new StartCodeInterpreterSessionCommand({ codeInterpreterIdentifier: "missing-a1b2c3d4e5" })),
    (err) => err instanceof DataResourceNotFoundException && err.$metadata.httpStatusCode === 404);
  await assert.rejects(client.send(new StartCodeInterpreterSessionCommand({ codeInterpreterIdentifier: "aws.codeinterpreter.v1", sessionTimeoutSeconds: 28801 })),
    (err) => err instanceof ValidationException && err.reason === "FieldValidationFailed" && err.fieldList[0].name === "sessionTimeoutSeconds");
  await assert.rejects(new BedrockAgentCoreClient({ credentials: wrongSecret })
    .send(new StartCodeInterpreterSessionCommand({ codeInterpreterIdentifier: "aws.codeinterpreter.v1" })),
  (err) => err.name === "InvalidSignatureException" && err.$metadata.httpStatusCode === 403);
  // The data plane is a host of its own: the control plane's URL has no such operation.
  await assert.rejects(new BedrockAgentCoreClient({ endpoint: agentCoreURL })
    .send(new StartCodeInterpreterSessionCommand({ codeInterpreterIdentifier: "aws.codeinterpreter.v1" })),
  (err) => err.name === "UnknownOperationException");
});

test("AgentCore data plane: a start retried with its client token starts no second session", async () => {
  const client = new BedrockAgentCoreClient({});
  const input = { codeInterpreterIdentifier: "aws.codeinterpreter.v1", clientToken: "conformance-retry-0123456789abcdef01234" };
  const first = await client.send(new StartCodeInterpreterSessionCommand(input));
  const again = await client.send(new StartCodeInterpreterSessionCommand(input));
  assert.equal(again.sessionId, first.sessionId);
  await assert.rejects(client.send(new StartCodeInterpreterSessionCommand({ ...input, name: "other" })),
    (err) => err instanceof ValidationException && err.reason === "IdempotentParameterMismatchException");
  await client.send(new StopCodeInterpreterSessionCommand({ codeInterpreterIdentifier: input.codeInterpreterIdentifier, sessionId: first.sessionId }));
});

test("AgentCore data plane: a result that comes after the answer started is read from the stream", async () => {
  const client = new BedrockAgentCoreClient({});
  const id = "aws.codeinterpreter.v1";
  const { sessionId } = await client.send(new StartCodeInterpreterSessionCommand({ codeInterpreterIdentifier: id }));
  await control(agentCoreDataURL, "PUT", "command-duration", { duration: "300ms" });
  try {
    const [result] = await executeCommand(client, id, sessionId, "echo late");
    assert.equal(result.structuredContent.stdout, "late\n");
  } finally {
    await control(agentCoreDataURL, "PUT", "command-duration", { duration: "0s" });
    await client.send(new StopCodeInterpreterSessionCommand({ codeInterpreterIdentifier: id, sessionId }));
  }
});
