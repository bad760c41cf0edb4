// better-sqlite3 as the WAL checkpointer's worker loads it, except that a checkpoint fails with the error code
// written in the file SIGHTLINE_TEST_CHECKPOINT_FAILURE names (while that file exists). Every attempt is appended
// to that file's name + '.attempts', so that a test knows how many ticks have passed.
const fs = require('node:fs');
const Database = require('better-sqlite3');

module.exports = class FailingCheckpoints extends Database {
  pragma(source, options) {
    if (source.startsWith('wal_checkpoint')) {
      const file = process.env.SIGHTLINE_TEST_CHECKPOINT_FAILURE;
      let code = '';
      try {
        code = fs.readFileSync(file, 'utf8');
      } catch {
        /* no failure asked for */
      }
      fs.appendFileSync(`${file}.attempts`, `${code || 'ok'}\n`);
      if (code) throw Object.assign(new Error(`injected ${code}`), { code });
    }
    return super.pragma(source, options);
  }
};
