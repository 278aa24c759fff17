// HBaseAdmin: the two administrative steps the service scripts need from
// HBase, run as a single-file Java program on HBase's own client jars
// (java -cp CONF:LIB/* HBaseAdmin.java ...), so no HBase shell (JRuby) is
// installed.
//
//   wait SECONDS                 until the master is initialised and
//                                hbase:meta answers
//   create TABLE:FAMILY[,FAMILY]  create each table that does not exist yet
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

public class HBaseAdmin {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: HBaseAdmin wait SECONDS | create TABLE:FAMILY[,FAMILY]...");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.client.retries.number", 3);
    switch (args[0]) {
      case "wait" -> waitReady(conf, Long.parseLong(args[1]));
      case "create" -> create(conf, Arrays.copyOfRange(args, 1, args.length));
      default -> {
        System.err.println("HBaseAdmin: unknown command " + args[0]);
        System.exit(2);
      }
    }
  }

  static void waitReady(Configuration conf, long seconds) throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000;
    Exception last = null;
    while (System.currentTimeMillis() < deadline) {
      try (Connection c = ConnectionFactory.createConnection(conf); Admin admin = c.getAdmin()) {
        if (!admin.isMasterInMaintenanceMode() && admin.tableExists(TableName.META_TABLE_NAME)) {
          admin.listTableDescriptors();
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      Thread.sleep(500);
    }
    System.err.println("HBaseAdmin: HBase not ready after " + seconds + " s: " + last);
    System.exit(1);
  }

  static void create(Configuration conf, String[] specs) throws Exception {
    try (Connection c = ConnectionFactory.createConnection(conf); Admin admin = c.getAdmin()) {
      for (String spec : specs) {
        String[] parts = spec.split(":", 2);
        TableName name = TableName.valueOf(parts[0]);
        if (admin.tableExists(name)) {
          continue;
        }
        TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
        for (String family : parts[1].split(",")) {
          table.setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
        }
        admin.createTable(table.build());
        System.out.println("created table " + parts[0]);
      }
    }
  }
}
