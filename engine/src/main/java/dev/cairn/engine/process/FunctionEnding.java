package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Data;

/** How a function a client ran ended: it returned (new outputs, an exit status), or it raised. */
public sealed interface FunctionEnding {

    /**
     * It returned.
     *
     * @param outputs     the data it returned, by link label: new data from a calculation function,
     *                    stored data from a workflow function; none with a non-zero status
     * @param exitStatus  0 when it succeeded; another number for a failure it reported itself
     * @param exitMessage what the failure was, or null
     */
    record Returned(Map<String, Data> outputs, int exitStatus, String exitMessage) implements FunctionEnding {
        /** Copies the outputs, keeping their order. */
        public Returned {
            outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        }
    }

    /**
     * It raised.
     *
     * @param exception what it raised: its type, message and traceback, as the client gives them
     */
    record Raised(String exception) implements FunctionEnding {
        /** Refuses a null exception. */
        public Raised {
            Objects.requireNonNull(exception, "exception");
        }
    }
}
