/**
 * cairn profile: the named servers and tokens this user talks to, kept in the configuration file.
 */
package dev.cairn.cli.commands.profile;
