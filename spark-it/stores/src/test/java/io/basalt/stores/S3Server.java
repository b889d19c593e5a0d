package io.basalt.stores;

import com.adobe.testing.s3mock.S3MockApplication;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.catalina.webresources.TomcatURLStreamHandlerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * An in-process S3-compatible server on the loopback interface: Adobe S3Mock, which answers a PUT
 * with {@code If-None-Match: *} of an existing key with 412 as S3 does. It keeps its objects in a
 * temporary directory and accepts any credentials.
 */
final class S3Server implements AutoCloseable {
  static final String ACCESS_KEY = "basalt-access";
  static final String SECRET_KEY = "basalt-secret";
  static final String REGION = "us-east-1";

  private final Path root;
  private final S3MockApplication mock;

  S3Server(String... buckets) throws Exception {
    // Spark installs Hadoop's URL stream handler factory first; the JVM takes only one, so
    // S3Mock's embedded Tomcat must not try to install its own
    TomcatURLStreamHandlerFactory.disable();
    root = Files.createTempDirectory("basalt-s3-");
    // S3Mock adds its own defaults to this map, so it must be mutable
    Map<String, Object> properties = new HashMap<>();
    properties.put(S3MockApplication.PROP_ROOT_DIRECTORY, root.toString());
    properties.put(S3MockApplication.PROP_INITIAL_BUCKETS, String.join(",", buckets));
    properties.put(S3MockApplication.PROP_HTTP_PORT, S3MockApplication.RANDOM_PORT);
    properties.put(S3MockApplication.PROP_HTTPS_PORT, S3MockApplication.RANDOM_PORT);
    properties.put("server.address", "127.0.0.1");
    properties.put(S3MockApplication.PROP_SILENT, true);
    mock = S3MockApplication.start(properties);
  }

  String endpoint() {
    return "http://127.0.0.1:" + mock.getHttpPort();
  }

  /** The Hadoop settings that point {@code s3a:} at this server. */
  Map<String, String> s3aConf() {
    return Map.of(
        "fs.s3a.endpoint", endpoint(),
        "fs.s3a.endpoint.region", REGION,
        "fs.s3a.path.style.access", "true",
        "fs.s3a.connection.ssl.enabled", "false",
        "fs.s3a.access.key", ACCESS_KEY,
        "fs.s3a.secret.key", SECRET_KEY,
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
        "fs.s3a.bucket.probe", "0",
        "fs.s3a.attempts.maximum", "1",
        "fs.s3a.retry.limit", "1");
  }

  /** A raw S3 client of this server, for requests S3A does not make itself. */
  S3Client client() {
    return S3Client.builder()
        .endpointOverride(URI.create(endpoint()))
        .region(Region.of(REGION))
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .build();
  }

  @Override
  public void close() {
    mock.stop();
    StoresTestSupport.deleteRecursively(root);
  }
}
