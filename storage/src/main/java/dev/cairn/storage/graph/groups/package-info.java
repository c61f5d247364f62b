/** Groups of nodes, with set-based membership changes. */
package dev.cairn.storage.graph.groups;
