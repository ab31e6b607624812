// The oracle for build steps: E2B's own SDK (npm package e2b) serialises templates with
// Template.toJSON, computing the files hashes of copy() and sending nothing. internal/conformance
// (e2b_steps_test.go) has had the provider build the same templates against the standalone
// emulator; each build start body the emulator received must equal the SDK's JSON. The templates
// here are written with the SDK's own calls, not derived from the provider's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ApiClient, BuildError, ConnectionConfig, Template, waitForPort, waitForTimeout, waitForURL } from "e2b";

const apiURL = process.env.E2B_API_URL;
const files = process.env.STEP_FILES; // the folder the provider's file steps read from

// The inline content of the provider's third file step, as a file of that name (0644) in the context.
const inline = path.join(files, "jupyter_config.py");
writeFileSync(inline, "c.ServerApp.open_browser = False\n");
chmodSync(inline, 0o644);

const templates = {
  "conf-steps-commands": () =>
    Template()
      .fromImage("e2bdev/code-interpreter:latest")
      .pipInstall(["numpy", "pandas==2.2.3"]) // packages: the first step
      .aptInstall(["ffmpeg", "libgl1"], { noInstallRecommends: true })
      .npmInstall(["typescript@5"], { g: true })
      .npmInstall(["left-pad"])
      .pipInstall(["requests"], { g: false })
      .runCmd("jupyter kernelspec list", { user: "root" })
      .gitClone("https://github.com/e2b-dev/e2b-cookbook", "/home/user/cookbook", { branch: "main", depth: 1 })
      .setEnvs({ GREETING: "two words", MPLBACKEND: "Agg" })
      .setUser("analyst")
      .setWorkdir("/home/analyst/work")
      .skipCache()
      .runCmd("echo ready")
      .setStartCmd("python -m http.server 8000", waitForPort(8000)),
  "conf-steps-files": () =>
    Template({ fileContextPath: files })
      .fromImage("python:3.12-slim")
      .copy("app", "/opt/app", { user: "root", mode: 0o755 })
      .copy("settings.json", "/etc/app/")
      .copy("jupyter_config.py", "/root/.jupyter/jupyter_config.py", { mode: 0o600 })
      .setStartCmd("python -m http.server 8888", waitForURL("http://localhost:8888/", 200)),
  "conf-steps-base": () =>
    Template()
      .fromTemplate("code-interpreter-v1")
      .pipInstall(["polars"])
      .setStartCmd("sudo systemctl start jupyter", waitForTimeout(2500)),
};

// received is the body of the newest build start of the template, as the emulator got it.
async function received(name) {
  const resp = await fetch(new URL(`/_emulator/templates/${name}`, apiURL));
  assert.ok(resp.ok, `GET /_emulator/templates/${name}: ${resp.status}`);
  const info = await resp.json();
  assert.equal(info.builds.at(-1).status, "ready", JSON.stringify(info.builds.at(-1)));
  return info.builds.at(-1).request;
}

for (const [name, template] of Object.entries(templates)) {
  test(`${name}: the provider sent what Template.toJSON gives`, async () => {
    const sdk = JSON.parse(await Template.toJSON(template()));
    assert.deepEqual(await received(name), sdk);
  });
}

test("the file steps carry the SDK's files hashes", async () => {
  const steps = (await received("conf-steps-files")).steps;
  assert.equal(steps.length, 3);
  for (const step of steps) {
    assert.match(step.filesHash, /^[0-9a-f]{64}$/);
  }
});

test("the emulator caches layers as E2B does: an SDK build after an edit of the last step logs the others CACHED", async () => {
  const template = (last) => Template().fromImage("python:3.12-slim").runCmd("echo one").runCmd(last);
  await Template.build(template("echo two"), "conf-cache");
  const logs = [];
  await Template.build(template("echo three"), "conf-cache", { onBuildLogs: (e) => logs.push(e.message) });
  const hash = "\\[[0-9a-f]{64}\\]";
  for (const line of [`^CACHED \\[base\\] FROM python:3.12-slim ${hash}$`, `^CACHED \\[builder 1/2\\] RUN echo one ${hash}$`,
    `^\\[builder 2/2\\] RUN echo three ${hash}$`]) {
    assert.ok(logs.some((m) => new RegExp(line).test(m)), `no log line matches ${line}:\n${logs.join("\n")}`);
  }
});

test("steps run in the image: a non-zero exit fails the build at its step; apt on Alpine is bash's 127", async () => {
  const failing = [
    [Template().fromImage("python:3.12-slim").runCmd("echo one").runCmd("exit 3"), "failed to run command 'exit 3': exit status 3"],
    [Template().fromImage("python:3.12-slim").runCmd("test -f /missing"), "failed to run command 'test -f /missing': exit status 1"],
    [Template().fromImage("python:3.12-alpine").aptInstall(["curl"]),
      "failed to run command 'apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y curl': exit status 127"],
  ];
  for (const [template, reason] of failing) {
    await assert.rejects(Template.build(template, "conf-run"), (err) => err instanceof BuildError && err.message === reason, reason);
  }
  await Template.build(Template().fromImage("python:3.12-slim").runCmd("false || true").runCmd("cd /tmp; echo $HOME"), "conf-run");
  await Template.build(Template().fromImage("node:20").runCmd("node --version && npm --version && git --version"), "conf-run");
});

test("a user made by setUser has no sudo: the code-interpreter start command fails at finalize", async () => {
  const start = "sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh";
  const logs = [];
  await assert.rejects(Template.build(Template().fromImage("e2bdev/code-interpreter:latest").setUser("app").setStartCmd(start, waitForTimeout(1000)),
    "conf-user", { onBuildLogs: (e) => logs.push(e.message) }),
  (err) => err instanceof BuildError && err.message === "start command failed: error running start command: exit status 1");
  assert.ok(logs.some((m) => m.includes("sudo: a password is required")), logs.join("\n"));
});

test("steps the orchestrator refuses fail the build at their step, with its words", async () => {
  const client = new ApiClient(new ConnectionConfig()).api;
  for (const [steps, step, reason] of [
    [[{ type: "ENV", args: ["ONLY_A_KEY"] }], "1", "ENV requires both a key and value arguments"],
    [[{ type: "RUN", args: ["true"] }, { type: "FROB", args: [] }], "2", "failed to get command for step FROB: command type FROB is not implemented"],
    [[{ type: "COPY", args: ["app", "/app"] }], "1", "COPY requires files hash to be set"],
    [[{ type: "COPY", args: ["app", "/app"], filesHash: "0".repeat(64) }], "1", "failed to open files object from storage: object does not exist"],
  ]) {
    const created = await client.POST("/v3/templates", { body: { name: "conf-refused" } });
    const { templateID, buildID } = created.data;
    const started = await client.POST("/v2/templates/{templateID}/builds/{buildID}",
      { params: { path: { templateID, buildID } }, body: { fromImage: "python:3.12-slim", steps } });
    assert.equal(started.response.status, 202);
    await assert.rejects(waitForBuildFinish(client, templateID, buildID),
      (err) => err.message === reason && err.step === step, JSON.stringify(steps));
  }
});

// waitForBuildFinish polls a build's status until it ends; an error carries its reason and step.
async function waitForBuildFinish(client, templateID, buildID) {
  for (;;) {
    const { data } = await client.GET("/templates/{templateID}/builds/{buildID}/status", { params: { path: { templateID, buildID } } });
    if (data.status === "error") {
      throw Object.assign(new Error(data.reason.message), { step: data.reason.step });
    }
    if (data.status === "ready") {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
