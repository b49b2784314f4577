[package]
name = "konfig-sample"
edition = "v0.9.0"
version = "0.1.0"
