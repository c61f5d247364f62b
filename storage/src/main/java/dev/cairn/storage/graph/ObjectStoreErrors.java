package dev.cairn.storage.graph;

import java.io.IOException;

import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.objects.BucketUnavailableException;
import dev.cairn.storage.objects.ContainerLockedException;
import dev.cairn.storage.objects.CorruptObjectException;
import dev.cairn.storage.objects.NotAContainerException;
import dev.cairn.storage.objects.ObjectNotFoundException;
import dev.cairn.storage.objects.UnsupportedContainerException;

/**
 * The object store's failures in Cairn's error families. The object store has exceptions of its
 * own, as it depends on nothing of Cairn; what reaches a caller of the graph is one of these.
 */
public final class ObjectStoreErrors {

    private ObjectStoreErrors() {}

    /** {@code failure} of the object store while {@code doing} ("reading 'out.txt' of node 12"). */
    public static CairnException translate(IOException failure, String doing) {
        String message = doing + ": " + failure.getMessage();
        return switch (failure) {
            case ObjectNotFoundException e -> new NotFoundException(message, e);
            case NotAContainerException e -> new InvalidInputException(message, e);
            case UnsupportedContainerException e -> new InvalidInputException(message, e);
            case ContainerLockedException e -> new ConflictException(message, e);
            case CorruptObjectException e ->
                new UnavailableException(message + " (the object store holds a damaged copy: validate it)", e);
            case BucketUnavailableException e -> new UnavailableException(message, e);
            default -> new UnavailableException(message, failure);
        };
    }

    /**
     * Whether {@code failure} (or a cause) is the object store's bucket failing after its retries: the S3
     * service down, unreachable or refusing. Like a lost database connection, it is no fault of the caller,
     * and the same work may succeed once the service answers.
     */
    public static boolean causedByBucketOutage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BucketUnavailableException) {
                return true;
            }
        }
        return false;
    }
}
