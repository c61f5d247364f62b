package dev.cairn.api.events;

/** What an event stream follows: every process, one process, or a process and all it calls. */
sealed interface StreamFilter {

    /** Every state change. */
    record All() implements StreamFilter {
        @Override
        public String toString() {
            return "every process";
        }
    }

    /** The changes of one process. */
    record OneProcess(long processId, String uuid) implements StreamFilter {
        @Override
        public String toString() {
            return "process " + uuid;
        }
    }

    /** The changes of a process and of every process it calls, directly or not, those called later too. */
    record Tree(long rootId, String uuid) implements StreamFilter {
        @Override
        public String toString() {
            return "the call tree of process " + uuid;
        }
    }
}
