package dev.cairn.api.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.cairn.storage.objects.testing.S3Server;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A database and a virtual host of a test class's own, for the server under test, and an S3 server for a
 * class that asks for one. Registered on the class before Spring's extension, it makes them before the
 * application starts and drops them only after Spring has closed it (JUnit runs the after-all callbacks in
 * reverse order).
 */
public final class ApiServices implements BeforeAllCallback, AfterAllCallback {

    private static TestDatabase db;
    private static TestBroker broker;
    private static S3Server s3;
    private static Path s3Dir;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        db = new TestDatabase();
        db.beforeAll(context);
        broker = new TestBroker();
        broker.beforeAll(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            broker.afterAll(context);
        } finally {
            try {
                db.afterAll(context);
            } finally {
                stopS3();
            }
        }
    }

    /** The running test class's database. */
    public static TestDatabase db() {
        return db;
    }

    /** The running test class's virtual host. */
    public static TestBroker broker() {
        return broker;
    }

    /**
     * An S3 server (S3Proxy in this JVM) of the running test class, started at the first call, stopped
     * after the application: a class whose server keeps its object store in a bucket asks for it in its
     * property source.
     */
    public static synchronized S3Server s3() {
        if (s3 == null) {
            try {
                s3Dir = Files.createTempDirectory("cairn-s3-");
                s3 = new S3Server(s3Dir);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start S3Proxy for the test: " + e.getMessage(), e);
            }
        }
        return s3;
    }

    private static synchronized void stopS3() throws Exception {
        if (s3 == null) {
            return;
        }
        try {
            s3.close();
        } finally {
            s3 = null;
            try (Stream<Path> all = Files.walk(s3Dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                // the temporary folder is left for the system to clear
            }
        }
    }
}
