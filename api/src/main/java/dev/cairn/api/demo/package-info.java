/**
 * The demo that {@code ./cairn up} runs ({@code cairn.demo=true}): once the worker is up, it sets up
 * the computer {@code localhost} and the code {@code bash@localhost} if they are missing, submits the
 * examples plugin's work chains and a calculation job through the engine's launcher, waits for them,
 * and prints what they did with the API's addresses, where the admin token is, and curl commands.
 */
package dev.cairn.api.demo;
