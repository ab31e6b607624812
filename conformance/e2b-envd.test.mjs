// E2B's official JavaScript SDK (npm package e2b) starts sandboxes from one exact build and runs
// commands in them through envd, against the standalone emulator, configured only by what it
// prints (E2B_API_URL, E2B_API_KEY, E2B_SANDBOX_URL): Sandbox.create("<name>:<build id>") with envs,
// timeout and metadata, commands.run (its exit code, output, CommandExitError; user, cwd and envs
// per command; streamed output), and kill. The data plane sandbox_template_check uses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CommandExitError, Sandbox, Template } from "e2b";

const apiURL = process.env.E2B_API_URL;

// inspect reads one of the emulator's unauthenticated /_emulator/ paths; null for a 404.
async function inspect(name) {
  const resp = await fetch(new URL(`/_emulator/${name}`, apiURL));
  if (resp.status === 404) {
    return null;
  }
  if (!resp.ok) {
    assert.fail(`GET /_emulator/${name}: ${resp.status} ${await resp.text()}`);
  }
  return resp.json();
}

test("the environment names where sandboxes are reached", () => {
  assert.ok(process.env.E2B_SANDBOX_URL, "E2B_SANDBOX_URL is not set");
});

test("Sandbox.create(name:<build id>) runs commands in exactly that build, as its user, in its workdir, with the sandbox's envs", async () => {
  const checked = await Template.build(
    Template().fromImage("python:3.12").pipInstall(["requests"]).setUser("app").setWorkdir("/srv"), "conf-check");
  const live = await Template.build(Template().fromImage("python:3.12"), "conf-check");
  assert.notEqual(live.buildId, checked.buildId);

  const sandbox = await Sandbox.create(`conf-check:${checked.buildId}`,
    { envs: { GREETING: "hello" }, timeoutMs: 120_000, metadata: { "sandbox-tf-check": "smoke" } });
  const info = await inspect(`sandboxes/${sandbox.sandboxId}`);
  assert.equal(info.build_id, checked.buildId, "name:<build id> starts that build, not the live one");
  assert.deepEqual(info.metadata, { "sandbox-tf-check": "smoke" });

  const greeted = await sandbox.commands.run('echo "$GREETING $(id -un) $PWD"');
  assert.equal(greeted.exitCode, 0);
  assert.equal(greeted.stdout, "hello app /srv\n");
  assert.equal(greeted.stderr, "");

  const imported = await sandbox.commands.run('python -c "import requests" && echo imported');
  assert.equal(imported.stdout, "imported\n", "what the build installed is there");

  await assert.rejects(sandbox.commands.run("echo partial; echo broken >&2; exit 3"), (err) =>
    err instanceof CommandExitError && err.exitCode === 3 && err.stdout === "partial\n" && err.stderr === "broken\n" &&
    err.error === "exit status 3");
  await assert.rejects(sandbox.commands.run('python -c "import polars"'),
    (err) => err instanceof CommandExitError && err.exitCode === 1 && /polars/.test(err.stderr));

  const asRoot = await sandbox.commands.run("echo $(id -un) $PWD $GREETING $EXTRA",
    { user: "root", cwd: "/tmp", envs: { EXTRA: "per-command" } });
  assert.equal(asRoot.stdout, "root /tmp hello per-command\n");

  const streamed = [];
  await sandbox.commands.run("echo out; echo err >&2",
    { onStdout: (data) => streamed.push(`stdout:${data}`), onStderr: (data) => streamed.push(`stderr:${data}`) });
  assert.deepEqual(streamed, ["stdout:out\n", "stderr:err\n"]);

  await sandbox.kill();
  assert.equal(await inspect(`sandboxes/${sandbox.sandboxId}`), null, "kill ends the sandbox");
  assert.equal(await Sandbox.kill(sandbox.sandboxId), false, "killing it again finds nothing");
  await assert.rejects(sandbox.commands.run("true"), "a killed sandbox runs nothing");
});
