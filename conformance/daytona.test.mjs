// The official Daytona SDK (@daytonaio/sdk, pinned in package.json) against the emulator at
// DAYTONA_API_URL with DAYTONA_API_KEY and DAYTONA_TARGET, as internal/conformance runs it.
// Where this fails, the emulator is wrong, not the SDK.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Daytona, Image, DaytonaConflictError, DaytonaError } from "@daytonaio/sdk";

const apiUrl = process.env.DAYTONA_API_URL;
assert.ok(apiUrl, "DAYTONA_API_URL is not set");
// The SDK's event socket (/api/socket.io/) is not emulated: the SDK falls back to polling.
const daytona = new Daytona(); // key, URL and target from the environment
after(() => daytona[Symbol.asyncDispose]());

// The emulator's own controls (no key), see daytonaemu/control.go.
async function control(path, body) {
  const res = await fetch(`${apiUrl.replace(/\/api$/, "")}/_emulator/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `/_emulator/${path}: ${res.status} ${text}`);
  return text === "" ? undefined : JSON.parse(text);
}

const PIP_AND_APT = Image.debianSlim("3.12").pipInstall(["requests"]).runCommands("apt-get install -y curl");
let built; // the snapshot of PIP_AND_APT, for the sandbox test

test("snapshot.create from an image: active, with the image's name and resources; get by name and id", async () => {
  const sn = await daytona.snapshot.create({ name: "conf-image", image: "python:3.12-slim", resources: { cpu: 2, memory: 2, disk: 4 } });
  assert.equal(sn.state, "active");
  assert.equal(sn.imageName, "python:3.12-slim");
  assert.deepEqual([sn.cpu, sn.mem, sn.disk], [2, 2, 4]);
  assert.equal(sn.errorReason, null);
  const byName = await daytona.snapshot.get("conf-image");
  const byId = await daytona.snapshot.get(sn.id);
  assert.equal(byName.id, sn.id);
  assert.equal(byId.name, "conf-image");

  await assert.rejects(daytona.snapshot.create({ name: "conf-image", image: "python:3.12-slim" }), (err) => {
    assert.ok(err instanceof DaytonaConflictError, `${err.name}: ${err.message}`);
    assert.match(err.message, /Snapshot with name "conf-image" already exists for this organization/);
    return true;
  });
  await assert.rejects(daytona.snapshot.create({ name: "conf-latest", image: "python:latest" }), /Images with tag ":latest" are not allowed/);
});

test("snapshot.create from an Image with pip and apt: built, its build log streamed", async () => {
  const logs = [];
  built = await daytona.snapshot.create({ name: "conf-built", image: PIP_AND_APT }, { onLogs: (l) => logs.push(l) });
  assert.equal(built.state, "active");
  assert.equal(built.buildInfo.dockerfileContent, PIP_AND_APT.dockerfile);
  assert.deepEqual(built.entrypoint, ["sleep", "infinity"]);
  const text = logs.join("\n");
  assert.match(text, /Creating snapshot conf-built \(building\)/);
  assert.match(text, /RUN python -m pip install requests/);
  assert.match(text, /Successfully installed requests/);
  assert.match(text, /Created snapshot conf-built \(active\)/);
});

test("snapshot.create from an Image with local files: the context goes through object storage to COPY", async () => {
  const dir = mkdtempSync(join(tmpdir(), "daytona-ctx-"));
  writeFileSync(join(dir, "app.py"), "print('hi')\n");
  mkdirSync(join(dir, "conf", "sub"), { recursive: true });
  writeFileSync(join(dir, "conf", "sub", "settings.ini"), "[x]\n");
  const image = Image.base("python:3.12-slim")
    .addLocalFile(join(dir, "app.py"), "/app/")
    .addLocalDir(join(dir, "conf"), "/etc/myapp")
    .runCommands("cat /app/app.py /etc/myapp/sub/settings.ini");
  const sn = await daytona.snapshot.create({ name: "conf-files", image });
  assert.equal(sn.state, "active");
  assert.equal(sn.buildInfo.contextHashes.length, 2);
  const sandbox = await daytona.create({ snapshot: "conf-files" });
  try {
    const out = await sandbox.process.executeCommand("cat /app/app.py /etc/myapp/sub/settings.ini");
    assert.equal(out.exitCode, 0, out.result);
    assert.equal(out.result, "print('hi')\n[x]\n");
  } finally {
    await sandbox.delete();
  }
});

test("snapshot.create fails with the server's errorReason: a failing RUN, an image that does not pull", async () => {
  await assert.rejects(
    daytona.snapshot.create({ name: "conf-broken", image: Image.base("python:3.12-slim").runCommands("exit 3") }),
    (err) => {
      assert.ok(err instanceof DaytonaError);
      assert.equal(err.message, 'Failed to create snapshot. Name: conf-broken Reason: failed to solve: process "/bin/sh -c exit 3" did not complete successfully: exit code: 3');
      return true;
    },
  );
  assert.equal((await daytona.snapshot.get("conf-broken")).state, "error");
  await assert.rejects(daytona.snapshot.create({ name: "conf-nopull", image: "python:9.99" }), /Reason: .*manifest for python:9\.99 not found/);
});

test("snapshot.list pages through the organization's snapshots", async () => {
  await daytona.snapshot.create({ name: "conf-list-a", image: "alpine:3.20" });
  await daytona.snapshot.create({ name: "conf-list-b", image: "alpine:3.20" });
  const all = await daytona.snapshot.list({ page: 1, limit: 100 });
  const names = all.items.map((s) => s.name);
  assert.ok(names.includes("conf-list-a") && names.includes("conf-list-b"), names.join(","));
  const page = await daytona.snapshot.list({ page: 2, limit: 1 });
  assert.equal(page.items.length, 1);
  assert.equal(page.page, 2);
  assert.equal(page.total, all.total);
  assert.equal(page.totalPages, all.total);
});

test("snapshot.activate: an inactive snapshot, after the deactivation cooldown, goes back to active", async () => {
  const sn = await daytona.snapshot.create({ name: "conf-idle", image: "alpine:3.20" });
  await assert.rejects(daytona.snapshot.activate(sn), new RegExp(`Snapshot ${sn.id} is already active`));
  await control("snapshots/conf-idle/expire", {}); // what 14 days unused do
  assert.equal((await daytona.snapshot.get("conf-idle")).state, "inactive");
  await assert.rejects(daytona.snapshot.activate("conf-idle"), /Snapshot deactivation is still in progress/);
  await control("clock", { advance: "10m" });
  const activated = await daytona.snapshot.activate("conf-idle");
  assert.equal(activated.state, "pending");
  let state = activated.state;
  for (let i = 0; state !== "active" && i < 10; i++) state = (await daytona.snapshot.get("conf-idle")).state;
  assert.equal(state, "active");
});

test("daytona.create({snapshot}) then process.executeCommand runs over what the build installed", async () => {
  assert.ok(built, "the pip-and-apt snapshot was not built");
  const sandbox = await daytona.create({ snapshot: "conf-built", envVars: { GREETING: "hello" } });
  try {
    assert.equal(sandbox.state, "started");
    assert.equal(sandbox.snapshot, "conf-built");
    const ok = await sandbox.process.executeCommand("curl --version && python -m pip show requests && echo $GREETING");
    assert.equal(ok.exitCode, 0, ok.result);
    assert.match(ok.result, /^curl /m);
    assert.match(ok.result, /^Name: requests$/m);
    assert.match(ok.result, /^hello$/m);
    const failed = await sandbox.process.executeCommand("exit 3");
    assert.equal(failed.exitCode, 3);
    const missing = await sandbox.process.executeCommand("wget --version");
    assert.equal(missing.exitCode, 127, missing.result);
  } finally {
    await sandbox.delete();
  }
  const gone = await control("sandboxes");
  assert.ok(gone.every((s) => s.state === "destroying" || s.state === "destroyed"), JSON.stringify(gone));
});

test("snapshot.delete: removing, then gone, and the name free again", async () => {
  const sn = await daytona.snapshot.create({ name: "conf-gone", image: "alpine:3.20" });
  await daytona.snapshot.delete("conf-gone");
  assert.equal((await daytona.snapshot.get(sn.id)).state, "removing");
  await assert.rejects(daytona.snapshot.get(sn.id), /not found/);
  const again = await daytona.snapshot.create({ name: "conf-gone", image: "alpine:3.20" });
  assert.notEqual(again.id, sn.id);
});
