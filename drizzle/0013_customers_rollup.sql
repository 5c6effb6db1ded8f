-- Placeholder: filled in by its owner. (A migration must run something.)
SELECT 1;
