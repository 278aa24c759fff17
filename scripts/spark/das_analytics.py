"""The das-events analytics phase as a Spark job, the way WSO2 DAS ran it.

Spark reads the event store (the mysql or postgres target's tables
points(series, t, v), series(id, device, sensor, ...) and devices(name, tags
JSON text, ...)) over JDBC, runs each analytics query as Spark SQL and writes
its answer back into the database with INSERT OVERWRITE into a result table
(one row per result group: group_key, value), as DAS's Spark scripts did
through their CarbonJDBC tables. Each run of each query is timed, from
submitting the statement until the answer is written, and reported on
standard output as one JSON line:

    {"name": "cityUsage", "run": 0, "seconds": 1.93}
    {"name": "cityUsage", "run": 1, "error": "..."}   (then no more runs of it)

Nothing else is printed on standard output; Spark logs to standard error.
internal/analytics/spark runs this job, reads the result tables back and
checks them against the generator. By hand:

    TSBENCH_SPARK_PASSWORD=... spark-submit --master 'local[*]' \\
        --jars mariadb-java-client.jar das_analytics.py \\
        --jdbc-url 'jdbc:mysql://127.0.0.1:3307/test?permitMysqlScheme' \\
        --driver org.mariadb.jdbc.Driver --user root --queries "$QUERIES" --runs 3

QUERIES is a JSON list of {"name", "kind", "tag", "value", "sensor", "flag",
"table"} (see ts.Analytic: kind is TAG_AGGREGATES, DEVICE_RANGE, TAG_AVERAGE,
TAG_AVERAGE_DIFF or COUNT_ROWS; sensor and flag are series ids whose sensor
names are meant, as in the targets' own analytics SQL). The password is read
from the environment variable named by --password-env (default
TSBENCH_SPARK_PASSWORD), never from the command line. The master comes from
spark-submit's --master, so the same job runs on a cluster unchanged.
"""

import argparse
import json
import os
import sys
import time

from pyspark.sql import SparkSession

# Every query reads the same joined events; the tag is read from the
# devices table's JSON text. :sensor and :flag are series ids (the targets'
# analytics SQL uses the same convention).
EVENTS = """FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
    WHERE s.sensor = (SELECT sensor FROM series WHERE id = :sensor)"""
TAG = "get_json_object(d.tags, concat('$.', :tag))"

# Each kind's query: (group_key, value) rows, one per result row, whose values
# are what ts.Analytic defines (for TAG_AGGREGATES avg + min + max).
QUERIES = {
    "TAG_AGGREGATES": f"""SELECT {TAG} AS group_key, AVG(p.v) + MIN(p.v) + MAX(p.v) AS value {EVENTS}
        GROUP BY {TAG}""",
    "TAG_AVERAGE": f"SELECT {TAG} AS group_key, AVG(p.v) AS value {EVENTS} GROUP BY {TAG}",
    "TAG_AVERAGE_DIFF": f"""WITH a AS (SELECT {TAG} AS group_key, AVG(p.v) AS x {EVENTS} GROUP BY {TAG})
        SELECT group_key, x - (SELECT AVG(x) FROM a) AS value FROM a""",
    # The flag sensor's row at the same time must be true (1).
    "DEVICE_RANGE": f"""SELECT s.device AS group_key, MAX(p.v) - MIN(p.v) AS value
        FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
        JOIN series fs ON fs.device = s.device
        JOIN points f ON f.series = fs.id AND f.t = p.t
        WHERE s.sensor = (SELECT sensor FROM series WHERE id = :sensor)
          AND fs.sensor = (SELECT sensor FROM series WHERE id = :flag)
          AND {TAG} = :value AND f.v = 1
        GROUP BY s.device""",
    "COUNT_ROWS": f"SELECT 'all' AS group_key, CAST(COUNT(*) AS DOUBLE) AS value {EVENTS}",
}

RESULT_SCHEMA = "group_key STRING, value DOUBLE"


def emit(**fields):
    print(json.dumps(fields), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jdbc-url", required=True, help="JDBC URL of the event store, without a password")
    ap.add_argument("--driver", required=True, help="JDBC driver class")
    ap.add_argument("--user", default="")
    ap.add_argument("--password-env", default="TSBENCH_SPARK_PASSWORD",
                    help="environment variable holding the password")
    ap.add_argument("--queries", required=True, help="JSON list of queries (see the module doc)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--partitions", type=int, default=0,
                    help="JDBC read partitions of points by series (default: Spark's default parallelism)")
    args = ap.parse_args()
    queries = json.loads(args.queries)

    props = {"driver": args.driver, "fetchsize": "10000"}
    if args.user:
        props["user"] = args.user
    password = os.environ.get(args.password_env, "")
    if password:
        props["password"] = password

    spark = SparkSession.builder.appName("tsbench das-events analytics").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        register_sources(spark, args.jdbc_url, props, args.partitions)
        for q in queries:
            run_query(spark, args.jdbc_url, props, q, args.runs)
    finally:
        spark.stop()


def register_sources(spark, url, props, partitions):
    """Registers the event store's tables as Spark views. points is read in
    partitions by series, so that a cluster's executors share the scan."""
    parts = partitions or spark.sparkContext.defaultParallelism
    lo, hi = spark.read.jdbc(url, "(SELECT MIN(series) AS lo, MAX(series) AS hi FROM points) b",
                             properties=props).first()
    if lo is None or parts <= 1 or hi <= lo:
        points = spark.read.jdbc(url, "points", properties=props)
    else:
        points = spark.read.jdbc(url, "points", column="series", lowerBound=int(lo), upperBound=int(hi) + 1,
                                 numPartitions=int(parts), properties=props)
    points.select("series", "t", "v").createOrReplaceTempView("points")
    spark.read.jdbc(url, "series", properties=props).createOrReplaceTempView("series")
    spark.read.jdbc(url, "devices", properties=props).createOrReplaceTempView("devices")


def run_query(spark, url, props, q, runs):
    name = q["name"]
    sql = QUERIES.get(q["kind"])
    if sql is None:
        emit(name=name, run=0, error=f"analytics kind {q['kind']} is not supported by the Spark job")
        return
    params = {"sensor": int(q.get("sensor", 0)), "flag": int(q.get("flag", 0)),
              "tag": q.get("tag", ""), "value": q.get("value", "")}
    used = {k: v for k, v in params.items() if ":" + k in sql}
    table = q["table"]
    try:
        # The result table must exist before Spark can map a view onto it;
        # mode "ignore" creates it only when it is missing. truncate keeps
        # the table (and its definition) on overwrite instead of dropping it.
        spark.createDataFrame([], RESULT_SCHEMA).write.jdbc(url, table, mode="ignore", properties=props)
        out = spark.read.jdbc(url, table, properties=dict(props, truncate="true"))
        view = "result_" + "".join(c if c.isalnum() else "_" for c in name)
        out.createOrReplaceTempView(view)
    except Exception as e:  # noqa: BLE001 - reported per query
        emit(name=name, run=0, error=f"result table {table}: {first_line(e)}")
        return
    insert = f"INSERT OVERWRITE TABLE {view} {sql}"  # the query may begin WITH: Spark allows it here
    for r in range(runs):
        t0 = time.perf_counter()
        try:
            spark.sql(insert, args=used)
        except Exception as e:  # noqa: BLE001 - reported per query
            emit(name=name, run=r, error=first_line(e))
            return
        emit(name=name, run=r, seconds=time.perf_counter() - t0)


def first_line(e):
    """The exception's message without the JVM stack trace (for an error
    raised in the JVM, the Java exception's own message, not py4j's "An error
    occurred while calling ...")."""
    msg = ""
    java = getattr(e, "java_exception", None)
    if java is not None:
        try:
            msg = str(java.toString()).strip()
        except Exception:  # noqa: BLE001 - the gateway may be gone
            msg = ""
    msg = msg or str(e).strip() or type(e).__name__
    return msg.splitlines()[0][:2000]


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001
        print(f"das_analytics: {first_line(e)}", file=sys.stderr)
        sys.exit(1)
