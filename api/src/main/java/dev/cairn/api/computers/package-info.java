/**
 * {@code /api/v1/computers}: the computers calculation jobs run on. Set up (checked by the
 * engine's {@code ComputerTypes} before anything is stored), listed, shown, deleted while no node
 * uses them, enabled or disabled per user (authinfo, as {@code verdi computer enable}), and
 * tested as {@code verdi computer test} does, through the engine. Reading needs the role read,
 * everything else admin. {@link dev.cairn.api.computers.ComputerRefs} finds a computer by label or
 * uuid for the other resources.
 */
package dev.cairn.api.computers;
