package dev.cairn.storage.objects.testing;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.Constants;
import org.gaul.s3proxy.blobstore.options.CreateContainerOptions;

import dev.cairn.storage.objects.S3Location;

/**
 * A real S3 server for the tests: S3Proxy in this JVM, on its {@code filesystem-nio2} backend (a folder),
 * checking AWS signatures, on a free port of the loopback address. Shared with the modules above the
 * object store through this module's test-jar, so that the server and its services are tested on a bucket.
 */
public final class S3Server implements AutoCloseable {

    public static final String ACCESS_KEY = "cairn-test";
    public static final String SECRET_KEY = "cairn-test-secret";

    private final S3Proxy proxy;
    private final BlobStore store;
    private final URI endpoint;

    public S3Server(Path dir) throws Exception {
        Files.createDirectories(dir);
        Properties p = new Properties();
        p.setProperty("jclouds.filesystem.basedir", dir.toString());
        p.setProperty(Constants.PROPERTY_IDENTITY, ACCESS_KEY);
        p.setProperty(Constants.PROPERTY_CREDENTIAL, SECRET_KEY);
        store = BlobStores.create("filesystem-nio2", p);
        proxy = S3Proxy.builder()
                .blobStore(store)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .build();
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start within 30 s: " + proxy.getState());
            }
            Thread.onSpinWait();
        }
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    public URI endpoint() {
        return endpoint;
    }

    public int port() {
        return proxy.getPort();
    }

    /** A new, empty bucket. */
    public String newBucket() {
        String name = "b-" + UUID.randomUUID().toString().substring(0, 13);
        store.createContainer(name, CreateContainerOptions.NONE);
        return name;
    }

    /** A location in a new bucket, reached at {@code endpoint} (this server, or a proxy in front of it). */
    public S3Location location(URI endpoint, Path cacheDir) {
        return S3Location.of(newBucket(), "store/", endpoint, "us-east-1", cacheDir)
                .withCredentials(ACCESS_KEY, SECRET_KEY);
    }

    public S3Location location(Path cacheDir) {
        return location(endpoint, cacheDir);
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        store.close();
    }
}
