/** The server's test support: the application against real services ({@link dev.cairn.api.testing.ApiTest}) and a client. */
package dev.cairn.api.testing;
