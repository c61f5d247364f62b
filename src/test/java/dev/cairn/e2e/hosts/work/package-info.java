/** The processes the many-hosts tests run on the workers, written as a plugin jar for them. */
package dev.cairn.e2e.hosts.work;
