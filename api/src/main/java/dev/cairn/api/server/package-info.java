/** {@code /api/v1/server}: what this server is (version, roles, embedded services), open to every client. */
package dev.cairn.api.server;
