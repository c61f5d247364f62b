package dev.cairn.storage.graph;

/** A rule of the provenance graph was broken; the message names the nodes and links involved. */
public class GraphException extends RuntimeException {

    public GraphException(String message) {
        super(message);
    }

    public GraphException(String message, Throwable cause) {
        super(message, cause);
    }
}
