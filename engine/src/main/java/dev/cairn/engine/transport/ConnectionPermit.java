package dev.cairn.engine.transport;

/**
 * What a transport to a computer that allows only so many connections at once holds for as long
 * as it is open, in use or kept idle in a {@link TransportPool}. The pool releases it when it
 * closes the transport, and closes an idle transport whose permit someone else is waiting for.
 */
public interface ConnectionPermit {

    /** The permit of a computer without a limit: nothing to release, never wanted. */
    ConnectionPermit NONE = new ConnectionPermit() {
        @Override
        public void release() {}

        @Override
        public boolean wanted() {
            return false;
        }
    };

    /** Gives the permit up; a second call does nothing. */
    void release();

    /**
     * Whether another engine waits for a permit to the same computer (or this one is no longer
     * sure it holds its own): an idle transport holding it is then closed instead of kept.
     */
    boolean wanted();
}
