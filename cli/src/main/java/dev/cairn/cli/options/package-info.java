/** What many commands share: the session options ({@code --profile}, {@code --json}, ...), node references, filters, inputs and questions. */
package dev.cairn.cli.options;
