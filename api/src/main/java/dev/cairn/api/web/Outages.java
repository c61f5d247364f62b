package dev.cairn.api.web;

import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.SqlErrors;

/**
 * Failures that mean a service the server needs is away (the database, the broker), however they
 * surface: Cairn's {@link UnavailableException} anywhere among the causes, or a JDBC connection
 * failure that nothing wrapped (a pool's timeout, SQL state class 08). Such a request is answered
 * 503 with {@code Retry-After}, never 500: it may well succeed once the service is back.
 */
public final class Outages {

    /** How long a client should wait before trying a request that met an unavailable service again. */
    public static final String RETRY_AFTER_SECONDS = "5";

    private Outages() {}

    /** True when {@code failure} or one of its causes is an outage. */
    public static boolean isOutage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof UnavailableException || SqlErrors.isConnectionFailure(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** What failed, for a 503's detail: the outermost Cairn message, which says what the server was doing. */
    public static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof UnavailableException u) {
                return u.getMessage();
            }
        }
        return "a connection to the database failed";
    }
}
