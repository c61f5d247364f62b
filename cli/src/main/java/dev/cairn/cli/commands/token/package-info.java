/**
 * cairn token: create, list and revoke access tokens, and make an admin token on the server's machine when none is left.
 */
package dev.cairn.cli.commands.token;
