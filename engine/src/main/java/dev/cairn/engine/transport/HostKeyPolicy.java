package dev.cairn.engine.transport;

import java.util.Locale;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What {@link SshTransport} does with a host key that its known_hosts file does not list.
 * Either way a key that differs from the listed one is refused: that is the attack the file
 * exists to catch. The names follow OpenSSH's {@code StrictHostKeyChecking}.
 */
public enum HostKeyPolicy {

    /** Refuse a host that known_hosts does not list ({@code StrictHostKeyChecking=yes}). */
    STRICT,

    /**
     * Trust a host on first use and add its key to known_hosts
     * ({@code StrictHostKeyChecking=accept-new}). The default: a new computer works at once,
     * and a changed key is still refused.
     */
    ACCEPT_NEW;

    /** "strict" (or "yes") and "accept-new", as written in a computer's configuration. */
    public static HostKeyPolicy parse(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "strict", "yes" -> STRICT;
            case "accept-new", "accept_new" -> ACCEPT_NEW;
            default ->
                throw new InvalidInputException("unknown host key policy '" + name + "': use 'strict' or 'accept-new'");
        };
    }
}
