package dev.cairn.api.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A database and a virtual host of a test class's own, for the server under test. Registered on
 * the class before Spring's extension, it makes them before the application starts and drops them
 * only after Spring has closed it (JUnit runs the after-all callbacks in reverse order).
 */
public final class ApiServices implements BeforeAllCallback, AfterAllCallback {

    private static TestDatabase db;
    private static TestBroker broker;

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
            db.afterAll(context);
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
}
