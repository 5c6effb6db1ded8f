-- Placeholder: the sales roll-up triggers (filled in by the next commit). A migration must run something.
SELECT 1;
