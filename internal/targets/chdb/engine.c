// See engine.h. The ADBC structures are declared here from the ADBC 1.0.0
// C API (the driver function table's order is the specification's), and
// the Arrow C data and stream interfaces from Arrow's C data interface
// specification: only what this file reads.
#include "engine.h"

#define _GNU_SOURCE // RTLD_DEEPBIND
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t adbc_status;

struct adbc_error {
  char* message;
  int32_t vendor_code;
  char sqlstate[5];
  void (*release)(struct adbc_error*);
};

// A database, connection or statement: the driver's private state.
struct adbc_handle {
  void* private_data;
  void* private_driver;
};

struct arrow_schema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct arrow_schema** children;
  struct arrow_schema* dictionary;
  void (*release)(struct arrow_schema*);
  void* private_data;
};

struct arrow_array {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct arrow_array** children;
  struct arrow_array* dictionary;
  void (*release)(struct arrow_array*);
  void* private_data;
};

struct arrow_stream {
  int (*get_schema)(struct arrow_stream*, struct arrow_schema*);
  int (*get_next)(struct arrow_stream*, struct arrow_array*);
  const char* (*get_last_error)(struct arrow_stream*);
  void (*release)(struct arrow_stream*);
  void* private_data;
};

typedef adbc_status (*adbc_fn)();

// The ADBC 1.0.0 driver: two private pointers, then the functions in the
// specification's order; the names are the positions this file calls.
enum {
  F_RELEASE, F_DATABASE_INIT, F_DATABASE_NEW, F_DATABASE_SET_OPTION, F_DATABASE_RELEASE,
  F_CONNECTION_COMMIT, F_CONNECTION_GET_INFO, F_CONNECTION_GET_OBJECTS, F_CONNECTION_GET_TABLE_SCHEMA,
  F_CONNECTION_GET_TABLE_TYPES, F_CONNECTION_INIT, F_CONNECTION_NEW, F_CONNECTION_SET_OPTION,
  F_CONNECTION_READ_PARTITION, F_CONNECTION_RELEASE, F_CONNECTION_ROLLBACK,
  F_STATEMENT_BIND, F_STATEMENT_BIND_STREAM, F_STATEMENT_EXECUTE_QUERY, F_STATEMENT_EXECUTE_PARTITIONS,
  F_STATEMENT_GET_PARAMETER_SCHEMA, F_STATEMENT_NEW, F_STATEMENT_PREPARE, F_STATEMENT_RELEASE,
  F_STATEMENT_SET_OPTION, F_STATEMENT_SET_SQL_QUERY, F_COUNT
};

struct adbc_driver {
  void* private_data;
  void* private_manager;
  adbc_fn fn[F_COUNT];
  // Room for what a newer driver may write past 1.0.0's table.
  void* spare[64];
};

#define ADBC_VERSION_1_0_0 1000000

static struct adbc_driver driver;

static char* copy(const char* s) { return strdup(s ? s : "(no message)"); }

// failed moves an ADBC error's message to *err and releases it.
static int failed(struct adbc_error* e, const char* what, char** err) {
  size_t n = strlen(what) + (e->message ? strlen(e->message) : 12) + 3;
  *err = malloc(n);
  snprintf(*err, n, "%s: %s", what, e->message ? e->message : "(no message)");
  if (e->release) e->release(e);
  return -1;
}

int tsb_load(const char* libpython, const char* library, char** err) {
  // RTLD_GLOBAL: chdb-core's library and its helper resolve the Python
  // symbols against this one.
  if (!dlopen(libpython, RTLD_NOW | RTLD_GLOBAL)) {
    *err = copy(dlerror());
    return -1;
  }
  // RTLD_DEEPBIND: the library's own symbols first. tsbench's binary
  // exports those of the libraries linked into it (DuckDB's bundled
  // compression, regex and formatting libraries among them), and the
  // library's references to its own copies must not bind to those: loading
  // it without this flag aborts in its initialisers (free(): invalid
  // pointer). The Python symbols it lacks still come from the global scope.
  void* lib = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (!lib) {
    *err = copy(dlerror());
    return -1;
  }
  adbc_status (*init)(int, void*, struct adbc_error*) = (adbc_status(*)(int, void*, struct adbc_error*))dlsym(lib, "AdbcDriverInit");
  if (!init) {
    *err = copy("the library has no AdbcDriverInit");
    return -1;
  }
  struct adbc_error e = {0};
  if (init(ADBC_VERSION_1_0_0, &driver, &e)) return failed(&e, "AdbcDriverInit", err);
  return 0;
}

void* tsb_database(const char* path, char** err) {
  struct adbc_handle* db = calloc(1, sizeof *db);
  struct adbc_error e = {0};
  if (driver.fn[F_DATABASE_NEW](db, &e) || driver.fn[F_DATABASE_SET_OPTION](db, "path", path, &e) ||
      driver.fn[F_DATABASE_INIT](db, &e)) {
    failed(&e, "open the database", err);
    free(db);
    return NULL;
  }
  return db;
}

void* tsb_connect(void* database, char** err) {
  struct adbc_handle* conn = calloc(1, sizeof *conn);
  struct adbc_error e = {0};
  if (driver.fn[F_CONNECTION_NEW](conn, &e) || driver.fn[F_CONNECTION_INIT](conn, database, &e)) {
    failed(&e, "connect", err);
    free(conn);
    return NULL;
  }
  return conn;
}

void tsb_disconnect(void* conn) {
  struct adbc_error e = {0};
  if (driver.fn[F_CONNECTION_RELEASE](conn, &e) && e.release) e.release(&e);
  free(conn);
}

// buffer is a growing output.
struct buffer {
  char* data;
  size_t len, cap;
};

static void put(struct buffer* b, const char* s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = realloc(b->data, cap);
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

// put_escaped writes s as a TabSeparated field: backslash, tab and newline
// escaped with a backslash.
static void put_escaped(struct buffer* b, const char* s, size_t n) {
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    const char* esc = s[i] == '\\' ? "\\\\" : s[i] == '\t' ? "\\t" : s[i] == '\n' ? "\\n" : NULL;
    if (!esc) continue;
    put(b, s + from, i - from);
    put(b, esc, 2);
    from = i + 1;
  }
  put(b, s + from, n - from);
}

// text reads value row of a string (u, z: 32-bit offsets) or large string
// (U, Z: 64-bit offsets) column; 0 when it is not one, or null.
static int text(const struct arrow_schema* s, const struct arrow_array* a, int64_t row, const char** p, size_t* n) {
  int64_t i = row + a->offset;
  const uint8_t* valid = a->buffers[0];
  if (valid && !(valid[i / 8] & (1 << (i % 8)))) return 0;
  const char* data = a->buffers[2];
  if (!strcmp(s->format, "u") || !strcmp(s->format, "z")) {
    const int32_t* off = a->buffers[1];
    *p = data + off[i], *n = (size_t)(off[i + 1] - off[i]);
    return 1;
  }
  if (!strcmp(s->format, "U") || !strcmp(s->format, "Z")) {
    const int64_t* off = a->buffers[1];
    *p = data + off[i], *n = (size_t)(off[i + 1] - off[i]);
    return 1;
  }
  return 0;
}

int tsb_exec(void* conn, const char* sql, int escaped, char** out, size_t* outlen, char** err) {
  *out = NULL, *outlen = 0;
  struct adbc_handle st = {0};
  struct adbc_error e = {0};
  if (driver.fn[F_STATEMENT_NEW](conn, &st, &e)) return failed(&e, "statement", err);
  struct arrow_stream stream = {0};
  int64_t affected = -1;
  int rc = 0;
  if (driver.fn[F_STATEMENT_SET_SQL_QUERY](&st, sql, &e) ||
      driver.fn[F_STATEMENT_EXECUTE_QUERY](&st, &stream, &affected, &e)) {
    rc = failed(&e, "query", err);
    goto done;
  }
  struct arrow_schema schema = {0};
  if (stream.get_schema(&stream, &schema)) {
    *err = copy(stream.get_last_error(&stream));
    rc = -1;
    goto done;
  }
  for (int64_t c = 0; c < schema.n_children; c++) {
    const char* f = schema.children[c]->format;
    if (strcmp(f, "u") && strcmp(f, "z") && strcmp(f, "U") && strcmp(f, "Z")) {
      size_t n = strlen(f) + 64;
      *err = malloc(n);
      snprintf(*err, n, "column %lld of the answer is not text (Arrow format %s)", (long long)c + 1, f);
      rc = -1;
      break;
    }
  }
  struct buffer b = {0};
  struct arrow_array batch;
  while (rc == 0) {
    memset(&batch, 0, sizeof batch);
    if (stream.get_next(&stream, &batch)) {
      *err = copy(stream.get_last_error(&stream));
      rc = -1;
      break;
    }
    if (!batch.release) break;  // the end of the stream
    for (int64_t r = 0; r < batch.length; r++) {
      for (int64_t c = 0; c < schema.n_children; c++) {
        const char* p;
        size_t n;
        int ok = text(schema.children[c], batch.children[c], r, &p, &n);
        if (escaped) {
          if (c > 0) put(&b, "\t", 1);
          if (ok) put_escaped(&b, p, n); else put(&b, "\\N", 2);
        } else if (ok) {
          put(&b, p, n);
        }
      }
      if (escaped) put(&b, "\n", 1);
    }
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  if (rc == 0) *out = b.data, *outlen = b.len;
  else free(b.data);
done:
  if (stream.release) stream.release(&stream);
  if (driver.fn[F_STATEMENT_RELEASE](&st, &e) && e.release) e.release(&e);
  return rc;
}
