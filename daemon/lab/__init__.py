"""The settings lab (docs/explanation/lab.md): scenarios, evaluator, grid, proposer campaign, ledger.

The lab searches the five memory settings against fixed stories, keeps every piece of
evidence in a ledger with file hashes, and never adopts anything itself: a selected
configuration becomes a review-queue proposal that a person approves.
"""
