package dev.cairn.cli.config;

import java.net.URI;

/**
 * A server the command line knows by name.
 *
 * @param name     as {@code --profile} names it
 * @param url      the server's base URL
 * @param hasToken whether a token is kept for it
 */
public record Profile(String name, URI url, boolean hasToken) {}
