package io.basalt.stores;

import java.util.Map;

/** The core SQL suite on S3A against the in-process S3 server, committing by conditional PUT. */
class S3aCoreSqlIT extends CoreSqlSuite {
  private S3Server server;

  @Override
  protected String startStore() throws Exception {
    server = new S3Server("lake");
    return "s3a://lake/warehouse";
  }

  @Override
  protected Map<String, String> hadoopConf() {
    return server.s3aConf();
  }

  @Override
  protected void stopStore() {
    if (server != null) {
      server.close();
    }
  }
}
