// E2B's official JavaScript SDK (npm package e2b) against the E2B emulator, configured only through
// the environment the standalone emulator prints (E2B_API_URL, E2B_API_KEY), as a user's script would
// be. Every call must succeed or fail as the SDK expects from E2B's real server (e2b-dev/infra); the
// emulator's /_emulator/ control paths seed and break it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ApiClient,
  BuildError,
  ConnectionConfig,
  RateLimitError,
  Sandbox,
  SandboxError,
  Template,
  TemplateError,
  waitForPort,
  waitForURL,
} from "e2b";

const apiURL = process.env.E2B_API_URL;

// control calls one of the emulator's unauthenticated /_emulator/ paths.
async function control(method, name, body) {
  const resp = await fetch(new URL(`/_emulator/${name}`, apiURL), {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!resp.ok) {
    assert.fail(`${method} /_emulator/${name}: ${resp.status} ${await resp.text()}`);
  }
  return resp.status === 204 ? undefined : resp.json();
}

// api is the SDK's own client for the endpoints the Template class does not wrap.
const api = () => new ApiClient(new ConnectionConfig()).api;

// A context folder with one file, for copy() steps.
const context = mkdtempSync(path.join(tmpdir(), "e2b-conformance-"));
writeFileSync(path.join(context, "app.py"), "print('hello from the template')\n");

const pythonApp = () =>
  Template({ fileContextPath: context })
    .fromImage("python:3.12-slim")
    .pipInstall(["requests"])
    .copy("app.py", "/app/app.py")
    .setStartCmd("python -m http.server 8000", waitForPort(8000));

test("the environment names every setting", () => {
  for (const name of ["E2B_API_URL", "E2B_API_KEY"]) {
    assert.ok(process.env[name], `${name} is not set`);
  }
});

test("Template.build: image, pipInstall, copy, setStartCmd, skipCache, name:tag", async () => {
  const logs = [];
  const built = await Template.build(pythonApp().skipCache(), "conf-py:v1", {
    onBuildLogs: (entry) => logs.push(entry.message),
  });
  assert.ok(built.templateId && built.buildId, JSON.stringify(built));
  assert.deepEqual(built.tags, ["v1"]); // a tag in the name replaces the default tag
  assert.ok(logs.includes("Uploaded 'app.py'"), logs.join("\n"));
  assert.ok(logs.some((m) => m.includes("Waiting for template to be ready")), logs.join("\n"));

  const info = await control("GET", "templates/conf-py");
  assert.equal(info.template_id, built.templateId);
  assert.deepEqual(info.ready_tags, ["v1"]);
  const last = info.builds.at(-1);
  assert.equal(last.start_cmd, "python -m http.server 8000");

  // The same files again: the server already has them, so the SDK skips the upload.
  const again = [];
  const rebuilt = await Template.build(pythonApp(), "conf-py:v2", { onBuildLogs: (e) => again.push(e.message) });
  assert.equal(rebuilt.templateId, built.templateId);
  assert.notEqual(rebuilt.buildId, built.buildId);
  assert.ok(again.includes("Skipping upload of 'app.py', already cached"), again.join("\n"));
});

test("Template.exists: the team's alias, another team's (403: exists), an unknown one (404)", async () => {
  await control("POST", "seed/foreign-template", { name: "conf-theirs", public: true });
  assert.equal(await Template.exists("conf-py"), true);
  assert.equal(await Template.exists("conf-theirs"), true);
  assert.equal(await Template.exists("conf-nobody-has-this"), false);
});

test("tags: assign from name:tag, list, remove; the default tag cannot be removed", async () => {
  const assigned = await Template.assignTags("conf-py:v1", ["prod", "stable"]);
  const before = await Template.getTags("conf-py");
  const v1 = before.find((t) => t.tag === "v1");
  assert.equal(assigned.buildId, v1.buildId);
  assert.deepEqual(assigned.tags.toSorted(), ["prod", "stable"]);
  assert.deepEqual(before.map((t) => t.tag).toSorted(), ["prod", "stable", "v1", "v2"]);
  assert.ok(before.every((t) => t.createdAt instanceof Date && !Number.isNaN(t.createdAt.getTime())));

  await Template.removeTags("conf-py", "prod");
  const after = await Template.getTags("conf-py");
  assert.deepEqual(after.map((t) => t.tag).toSorted(), ["stable", "v1", "v2"]);
  await assert.rejects(Template.removeTags("conf-py", "default"),
    (err) => err instanceof TemplateError && /^400: Cannot delete the 'default' tag/.test(err.message));
  await assert.rejects(Template.assignTags("conf-py:nope", "x"),
    (err) => err instanceof TemplateError && err.message.startsWith("404: "));
});

// startedFrom starts a sandbox from ref with the SDK, asks the emulator which build it started from,
// and kills it (running sandboxes keep a template from being deleted).
async function startedFrom(ref) {
  const sandbox = await Sandbox.create(ref);
  const { build_id: buildId } = await control("GET", `sandboxes/${sandbox.sandboxId}`);
  assert.equal(await Sandbox.kill(sandbox.sandboxId), true);
  return buildId;
}

test("versions: a candidate built under its own tags, promoted and rolled back by tags; what Sandbox.create starts", async () => {
  const live = await Template.build(Template().fromImage("python:3.12-slim"), "conf-ver");
  const candidate = await Template.build(Template().fromImage("python:3.12-slim").pipInstall(["requests"]), "conf-ver",
    { tags: ["git-abc", "cand"] });
  assert.deepEqual(candidate.tags.toSorted(), ["cand", "git-abc"]); // tags sent: no default
  assert.equal(await startedFrom("conf-ver"), live.buildId, "the plain name keeps the live build");
  assert.equal(await startedFrom("conf-ver:git-abc"), candidate.buildId);
  assert.equal(await startedFrom(`conf-ver:${candidate.buildId}`), candidate.buildId, "name:<build id> names exactly that build");

  await Template.assignTags(`conf-ver:${candidate.buildId}`, "prod"); // promotion
  assert.equal(await startedFrom("conf-ver:prod"), candidate.buildId);
  assert.equal(await startedFrom("conf-ver"), live.buildId);
  const rollback = await Template.assignTags(`conf-ver:${live.buildId}`, "prod");
  assert.equal(rollback.buildId, live.buildId);
  assert.equal(await startedFrom("conf-ver:prod"), live.buildId);
  assert.equal((await Template.getTags("conf-ver")).find((t) => t.tag === "prod").buildId, live.buildId);

  await Template.removeTags("conf-ver", "prod");
  await assert.rejects(Sandbox.create("conf-ver:prod"),
    (err) => err instanceof SandboxError && err.message === "404: tag 'prod' does not exist for template 'emulator/conf-ver'");
  assert.equal(await startedFrom(`conf-ver:${candidate.buildId}`), candidate.buildId, "removing a tag leaves the builds");
});

test("@e2b/cli template list names the build the plain name starts", async () => {
  const { execFile } = await import("node:child_process");
  const { createRequire } = await import("node:module");
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve("@e2b/cli/package.json")), "dist", "index.js");
  const live = await Template.build(Template().fromImage("python:3.12-slim"), "conf-listed");
  await Template.build(Template().fromImage("python:3.12-slim").pipInstall(["requests"]), "conf-listed", { tags: ["cand"] });
  const out = await new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, "template", "list", "--format", "json"], { env: process.env, timeout: 60_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
  });
  const listed = JSON.parse(out.slice(out.indexOf("["))).find((t) => t.aliases.includes("conf-listed"));
  assert.equal(listed?.buildID, live.buildId, out);
});

test("the code-interpreter start script fails a build on python:3.12-slim as on E2B (sudo: command not found, exit 1)", async () => {
  const ci = Template()
    .fromImage("python:3.12-slim")
    .setStartCmd("sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh", waitForURL("http://localhost:49999/health"));
  const logs = [];
  await assert.rejects(Template.build(ci, "conf-ci", { onBuildLogs: (e) => logs.push(e.message) }),
    (err) => err instanceof BuildError && err.message === "start command failed: error running start command: exit status 1");
  assert.ok(logs.some((m) => m.includes("sudo: /root/.jupyter/start-up.sh: command not found")), logs.join("\n"));

  // The failed build still carries the default tag: the alias exists, the tag has no ready build.
  assert.equal(await Template.exists("conf-ci"), true);
  assert.deepEqual((await Template.getTags("conf-ci")).map((t) => t.tag), ["default"]);
  const res = await api().GET("/templates/aliases/{alias}", { params: { path: { alias: "conf-ci:default" } } });
  assert.equal(res.response.status, 404);
  assert.equal(res.error.message, "tag 'default' does not exist for template 'conf-ci'");

  // E2B's Docker Hub code-interpreter image has the script.
  const fixed = Template()
    .fromImage("e2bdev/code-interpreter:latest")
    .setStartCmd("sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh", waitForURL("http://localhost:49999/health"));
  await Template.build(fixed, "conf-ci");
  const ok = await api().GET("/templates/aliases/{alias}", { params: { path: { alias: "conf-ci:default" } } });
  assert.equal(ok.response.status, 200);
});

test("a failure injected through the control path reaches the SDK as a BuildError", async () => {
  await control("POST", "fail-build", { template: "conf-broken", reason: "no space left on device", step: "1" });
  await assert.rejects(Template.build(Template().fromImage("python:3.12-slim"), "conf-broken"),
    (err) => err instanceof BuildError && err.message === "no space left on device");
});

test("fromTemplate: a missing, not-ready or another team's private base template fails the build at base", async () => {
  await control("POST", "seed/failed-template", { name: "conf-half", reason: "no space left on device" });
  await control("POST", "seed/foreign-template", { name: "conf-private", public: false });
  for (const [base, message] of [
    ["conf-nobody-has-this", "template 'conf-nobody-has-this' not found"],
    ["conf-half", "tag 'default' does not exist for template 'emulator/conf-half'"],
    ["conf-private", "template 'conf-private' not found"],
  ]) {
    await assert.rejects(Template.build(Template().fromTemplate(base), "conf-from"),
      (err) => err instanceof BuildError && err.message === message, base);
  }
  const built = await Template.build(Template().fromTemplate("code-interpreter-v1").pipInstall(["requests"]), "conf-from");
  assert.ok(built.buildId);
});

test("the orchestrator's pull failures: no login, a wrong one, a missing repository or tag", async () => {
  const login = { username: "robot", password: "robot-password" }; // registry.test's only login (e2bemu registries.go)
  for (const [image, credentials, message] of [
    ["registry.test/team/app:1", undefined, "access denied to 'registry.test/team/app:1': authentication required or insufficient permissions"],
    ["registry.test/team/app:1", { ...login, password: "guess" }, "access denied to 'registry.test/team/app:1': authentication required or insufficient permissions"],
    ["registry.test/team/gone:1", login, "repository 'registry.test/team/gone:1' not found: verify the image name is correct"],
    ["registry.test/team/app:2", login, "image 'registry.test/team/app:2' not found: the image or tag does not exist in the registry"],
  ]) {
    await assert.rejects(Template.build(Template().fromImage(image, credentials), "conf-pull"),
      (err) => err instanceof BuildError && err.message === message, image);
  }
  await Template.build(Template().fromImage("registry.test/team/app:1", login), "conf-pull");
});

test("a cached base is not pulled: wrong credentials build until a build with skipCache pulls", async () => {
  // The base layer's key holds the image's name, not its credentials (phases/base/hash.go); only a
  // base that is built is pulled (core/rootfs/rootfs.go). The test above built registry.test/team/app:1.
  const wrong = { username: "robot", password: "rotated-and-wrong" };
  const logs = [];
  await Template.build(Template().fromImage("registry.test/team/app:1", wrong), "conf-pull-cached", { onBuildLogs: (e) => logs.push(e.message) });
  assert.ok(logs.some((l) => l.includes("CACHED [base] FROM registry.test/team/app:1")), logs.join("\n"));
  await assert.rejects(Template.build(Template().fromImage("registry.test/team/app:1", wrong), "conf-pull-cached", { skipCache: true }),
    (err) => err instanceof BuildError && err.message.startsWith("access denied to 'registry.test/team/app:1'"));
});

test("an empty fromImage is refused as E2B does: 202, then the build fails at base", async () => {
  const client = api();
  const created = await client.POST("/v3/templates", { body: { name: "conf-empty" } });
  const { templateID, buildID } = created.data;
  const started = await client.POST("/v2/templates/{templateID}/builds/{buildID}",
    { params: { path: { templateID, buildID } }, body: { fromImage: "" } });
  assert.equal(started.response.status, 202);
  const status = await client.GET("/templates/{templateID}/builds/{buildID}/status", { params: { path: { templateID, buildID } } });
  assert.equal(status.data.status, "error");
  assert.deepEqual([status.data.reason.message, status.data.reason.step], ["failed to pull build image from registry", "base"]);
});

test("the team's build concurrency limit: 429 on a new build, a RateLimitError in the SDK", async () => {
  await control("POST", "build-concurrency", { limit: 1 });
  await control("POST", "hang-builds", { template: "conf-slow" });
  try {
    const slow = await Template.buildInBackground(Template().fromImage("python:3.12-slim"), "conf-slow");
    await assert.rejects(Template.build(Template().fromImage("python:3.12-slim"), "conf-other"),
      (err) => err instanceof RateLimitError && err.message.includes("maximum number of concurrent template builds (1)"));
    const status = await Template.getBuildStatus(slow);
    assert.equal(status.status, "building");
  } finally {
    await control("POST", "build-concurrency", { limit: 0 });
    await control("POST", "release-builds", { template: "conf-slow" });
  }
});

test("sizing rules are the server's: an odd CPU count is a 400", async () => {
  await assert.rejects(Template.build(Template().fromImage("python:3.12-slim"), "conf-odd", { cpuCount: 3 }),
    (err) => err instanceof BuildError && err.message === "400: CPU count must be 1 or an even number");
});

test("the team's sizing maxima: 400 above them, with E2B's words", async () => {
  await assert.rejects(Template.build(Template().fromImage("python:3.12-slim"), "conf-big", { cpuCount: 16 }),
    (err) => err instanceof BuildError &&
      err.message === "400: CPU count can't be higher than 8 (if you need to increase this limit, please contact support)");
  await control("POST", "team-limits", { maxCpu: 16, maxMemoryMb: 4096 });
  try {
    await Template.build(Template().fromImage("python:3.12-slim"), "conf-big", { cpuCount: 16 });
    await assert.rejects(Template.build(Template().fromImage("python:3.12-slim"), "conf-big", { memoryMB: 8192 }),
      (err) => err instanceof BuildError &&
        err.message === "400: Memory can't be higher than 4096 MiB (if you need to increase this limit, please contact support)");
  } finally {
    await control("POST", "team-limits", {});
  }
});

test("an injected 429 with Retry-After is retried by the SDK; a 503 is a ServiceBusyError", async () => {
  await control("POST", "fail-requests", { count: 1, status: 429 });
  assert.equal(await Template.exists("conf-py"), true);
  await control("POST", "fail-requests", { count: 1, status: 503 });
  await assert.rejects(Template.exists("conf-py"), (err) => err.name === "ServiceBusyError" || err.statusCode === 503);
});

test("delete through the SDK's API client: refused while sandboxes run, then gone", async () => {
  const del = (ref) => api().DELETE("/templates/{templateID}", { params: { path: { templateID: ref } } });
  const before = await control("GET", "templates/conf-py");
  await control("POST", "seed/sandboxes", { template: "conf-py", count: 1 });
  const refused = await del("conf-py");
  assert.equal(refused.response.status, 400);
  assert.match(refused.error.message, /because there are running sandboxes using it/);

  await control("POST", "seed/sandboxes", { template: "conf-py", count: 0 });
  assert.equal((await del("conf-py")).response.status, 204);
  assert.equal(await Template.exists("conf-py"), false);
  assert.equal((await del(before.template_id)).response.status, 404);

  // The alias was released: building under it again makes a new template.
  const rebuilt = await Template.build(Template().fromImage("python:3.12-slim"), "conf-py");
  assert.notEqual(rebuilt.templateId, before.template_id);
  assert.equal((await del(rebuilt.templateId)).response.status, 204);
});

test("delete through E2B's CLI (@e2b/cli): e2b template delete <name> -y", async () => {
  const { execFile } = await import("node:child_process");
  const { createRequire } = await import("node:module");
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve("@e2b/cli/package.json")), "dist", "index.js");
  const built = await Template.build(Template().fromImage("python:3.12-slim"), "conf-cli");
  const run = (...args) => new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: process.env, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? err.code ?? 1 : 0, out: `${stdout}${stderr}` }));
  });
  const del = await run("template", "delete", "conf-cli", "--yes");
  assert.equal(del.code, 0, del.out);
  assert.equal(await Template.exists("conf-cli"), false, del.out);
  const gone = await api().GET("/templates/{templateID}", { params: { path: { templateID: built.templateId } } });
  assert.equal(gone.response.status, 404);
});
