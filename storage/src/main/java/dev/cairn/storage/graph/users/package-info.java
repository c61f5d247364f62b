/** The users that nodes, groups and comments belong to. */
package dev.cairn.storage.graph.users;
