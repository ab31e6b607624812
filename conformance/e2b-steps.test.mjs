// The oracle for build steps: E2B's own SDK (npm package e2b) serialises templates with
// Template.toJSON, computing the files hashes of copy() and sending nothing. internal/conformance
// (e2b_steps_test.go) has had the provider build the same templates against the standalone
// emulator; each build start body the emulator received must equal the SDK's JSON. The templates
// here are written with the SDK's own calls, not derived from the provider's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Template, waitForPort, waitForTimeout, waitForURL } from "e2b";

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
      .gitClone("https://github.com/e2b-dev/e2b-cookbook", "/opt/cookbook", { branch: "main", depth: 1 })
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
      .setReadyCmd(waitForURL("http://localhost:8888/api", 204)),
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
