'use strict';
// server/files/write-file-atomic.js, the server's one atomic writer, and the PEM pair written
// through it (server/tls/write-pem-pair.js): the mode asked for is the file's whatever was
// there, a link or file planted at the temporary name (a guessed one, or the very one the
// random source gives) is never followed, written into nor removed, a failure leaves no
// temporary behind, and a reader never sees anything but the old or the new content.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { writeFileAtomic, TEMP_PREFIX } = require('../../server/files/write-file-atomic');
const { writePemPair } = require('../../server/tls/write-pem-pair');

async function tempDir(t) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-atomic-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

const modeOf = async (file) => (await fs.lstat(file)).mode & 0o777;
const FIXED = () => Buffer.from('0123456789abcdef', 'hex');
const fixedTemp = (dir) => path.join(dir, `${TEMP_PREFIX}${process.pid}-${FIXED().toString('hex')}`);

test('the file gets the content and exactly the mode asked, over whatever was there, and no temporary stays', async (t) => {
  const dir = await tempDir(t);
  const cases = [
    // [what was there, mode asked, mode expected]
    [null, undefined, 0o644],
    [null, 0o600, 0o600],
    [{ mode: 0o644 }, 0o600, 0o600],
    [{ mode: 0o600 }, 0o644, 0o644],
  ];
  for (const [i, [before, mode, expected]] of cases.entries()) {
    const file = path.join(dir, `f${i}`);
    if (before !== null) {
      await fs.writeFile(file, 'old');
      await fs.chmod(file, before.mode);
    }
    await writeFileAtomic(file, `new ${i}`, mode === undefined ? undefined : { mode });
    assert.equal(await fs.readFile(file, 'utf8'), `new ${i}`, `case ${i}`);
    assert.equal(await modeOf(file), expected, `case ${i}`);
  }
  assert.deepEqual((await fs.readdir(dir)).filter((n) => n.startsWith(TEMP_PREFIX)), []);
});

test('a link or file planted at the temporary name is neither followed, written into nor removed', async (t) => {
  const dir = await tempDir(t);
  const victim = path.join(dir, 'victim');
  for (const plant of ['symlink', 'file']) {
    await fs.writeFile(victim, 'victim');
    const temp = fixedTemp(dir);
    if (plant === 'symlink') await fs.symlink(victim, temp);
    else await fs.writeFile(temp, 'planted', { mode: 0o644 });
    const target = path.join(dir, 'key.pem');
    await assert.rejects(writeFileAtomic(target, 'secret', { mode: 0o600, random: FIXED }), { code: 'EEXIST' }, plant);
    assert.equal(await fs.readFile(victim, 'utf8'), 'victim', plant);
    assert.equal(plant === 'symlink' ? await fs.readlink(temp) : await fs.readFile(temp, 'utf8'), plant === 'symlink' ? victim : 'planted', plant);
    await assert.rejects(fs.lstat(target), { code: 'ENOENT' }, `${plant}: nothing written`);
    await fs.rm(temp);
  }
});

test('a PEM pair written where links sit at the names a predictable writer would use: the key is 0600, nothing else changes', async (t) => {
  const dir = await tempDir(t);
  const victim = path.join(dir, 'victim');
  await fs.writeFile(victim, 'victim');
  await fs.chmod(victim, 0o644);
  const files = { certFile: path.join(dir, 'cert.pem'), keyFile: path.join(dir, 'key.pem') };
  // `${file}.${pid}.tmp` was this server's temporary name: anyone could have planted these.
  await fs.symlink(victim, `${files.keyFile}.${process.pid}.tmp`);
  await fs.writeFile(`${files.certFile}.${process.pid}.tmp`, 'planted', { mode: 0o666 });
  await writePemPair(files, { cert: 'CERT', key: 'KEY' });
  assert.equal(await fs.readFile(victim, 'utf8'), 'victim');
  assert.equal(await fs.readFile(`${files.certFile}.${process.pid}.tmp`, 'utf8'), 'planted');
  assert.deepEqual([await fs.readFile(files.keyFile, 'utf8'), await modeOf(files.keyFile), (await fs.lstat(files.keyFile)).isFile()], ['KEY', 0o600, true]);
  assert.deepEqual([await fs.readFile(files.certFile, 'utf8'), (await fs.lstat(files.certFile)).isFile()], ['CERT', true]);
});

test('a failed write or rename leaves the target as it was and no temporary', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'f');
  await fs.writeFile(file, 'old');
  // The data is no string nor buffer: the write fails after the temporary was made.
  await assert.rejects(writeFileAtomic(file, 42));
  // A directory at the target: the rename fails.
  await fs.mkdir(path.join(dir, 'd'));
  await fs.writeFile(path.join(dir, 'd', 'x'), '');
  await assert.rejects(writeFileAtomic(path.join(dir, 'd'), 'new'), { code: 'EISDIR' });
  assert.equal(await fs.readFile(file, 'utf8'), 'old');
  assert.deepEqual((await fs.readdir(dir)).sort(), ['d', 'f']);
});

test('a reader sees the old content or the new one, never a part', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'f');
  const contents = ['a'.repeat(1 << 20), 'b'.repeat(1 << 20)];
  await fs.writeFile(file, contents[0]);
  let writing = true;
  const reads = [];
  const reader = (async () => {
    while (writing) reads.push(await fs.readFile(file, 'utf8'));
  })();
  for (let i = 1; i <= 20; i++) await writeFileAtomic(file, contents[i % 2], { sync: false });
  writing = false;
  await reader;
  assert.ok(reads.length > 0);
  for (const read of reads) assert.ok(read === contents[0] || read === contents[1], `a read of ${read.length} bytes`);
});
