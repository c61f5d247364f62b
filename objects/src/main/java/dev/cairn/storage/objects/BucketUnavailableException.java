package dev.cairn.storage.objects;

/**
 * A request to the bucket of a container in S3 failed, after its retries: the server is down or
 * unreachable, refuses the credentials, or keeps failing. Nothing was half-written: the operation that
 * met it can be run again.
 */
public final class BucketUnavailableException extends ObjectStoreException {

    BucketUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
