// The C side of the chdb target: loads chdb-core's library and reaches its
// engine through the ADBC driver entry point it exports (AdbcDriverInit),
// the only C entry the library has besides its Python module.
#include <stddef.h>
#include <stdint.h>

// tsb_load opens the Python runtime library (its symbols only: the library
// needs them to load, the interpreter is never started) and chdb-core's
// library, and initialises its ADBC driver. 0 on success, else *err.
int tsb_load(const char* libpython, const char* library, char** err);

// tsb_database opens the engine's storage at path; NULL and *err on failure.
void* tsb_database(const char* path, char** err);

// tsb_connect opens a connection (a session) on the database.
void* tsb_connect(void* database, char** err);

// tsb_exec runs sql on the connection. Its answer, when it has one, must be
// made of text columns: *out holds the rows, each column's value as it is
// (raw) or escaped for TabSeparated and the columns joined by tabs, each row
// ended by a newline (escaped) or by nothing (raw: the value carries its
// own line end, as formatRow's does). *out is malloc'ed (free it); NULL for
// no answer. 0 on success, else *err.
int tsb_exec(void* conn, const char* sql, int escaped, char** out, size_t* outlen, char** err);

// tsb_disconnect closes a connection.
void tsb_disconnect(void* conn);
