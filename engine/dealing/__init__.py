"""dealing"""
