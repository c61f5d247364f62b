package dev.cairn.storage.graph;

import dev.cairn.storage.errors.ConflictException;

/** Storing would make the data provenance (CREATE and INPUT links) cyclic. */
final class ProvenanceCycleException extends ConflictException {

    public ProvenanceCycleException(String message) {
        super(message);
    }
}
