/** Maintenance run after commits: automatic tags and snapshot and partition expiration. */
package io.basalt.operation.maintenance;
