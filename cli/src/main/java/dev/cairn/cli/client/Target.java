package dev.cairn.cli.client;

import java.net.URI;

/**
 * The server a command talks to and the token it shows.
 *
 * @param url   the server's base URL, {@code http://127.0.0.1:8080}
 * @param token the bearer token, or null to send none
 * @param from  where the two came from, for messages ("profile 'lab'", "CAIRN_URL", "the local server's data directory")
 */
public record Target(URI url, String token, String from) {}
