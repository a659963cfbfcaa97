"""Reading threads from boards: addresses (`ThreadRef`), dialects, incremental fetch, `Post`."""
