package dev.cairn.storage.graph.computers;

import java.util.Map;

/**
 * How one user reaches one computer: the transport's parameters (for ssh: username, port,
 * key_filename, proxy_jump, ...; no secrets) and whether the computer is enabled for the user.
 */
public record AuthInfo(
        long id,
        long userId,
        long computerId,
        Map<String, Object> authParams,
        Map<String, Object> metadata,
        boolean enabled) {

    public AuthInfo {
        authParams = Map.copyOf(authParams);
        metadata = Map.copyOf(metadata);
    }
}
