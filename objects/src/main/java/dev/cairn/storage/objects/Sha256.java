package dev.cairn.storage.objects;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** New SHA-256 digests, cloned from a prototype (cheaper than a provider look-up per object). */
final class Sha256 {

    private static final MessageDigest PROTOTYPE;

    static {
        try {
            PROTOTYPE = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError("every Java runtime has SHA-256: " + e);
        }
    }

    private Sha256() {}

    static MessageDigest newDigest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
    }

    static ObjectKey keyOf(byte[] content) {
        return ObjectKey.ofDigest(newDigest().digest(content));
    }
}
