package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Data;

/** How a function a client ran ended: it returned (new outputs, an exit status), or it raised. */
public sealed interface FunctionEnding {

    /**
     * It returned: {@code outputs} new data by link label, with exit status 0; a non-zero status
     * is a failure the function reported, and links no outputs.
     */
    record Returned(Map<String, Data> outputs, int exitStatus, String exitMessage) implements FunctionEnding {
        public Returned {
            outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        }
    }

    /** It raised {@code exception} (its type, message and traceback, as the client gives them). */
    record Raised(String exception) implements FunctionEnding {
        public Raised {
            Objects.requireNonNull(exception, "exception");
        }
    }
}
